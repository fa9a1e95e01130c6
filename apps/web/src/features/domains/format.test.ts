import { describe, expect, it } from 'vitest';
import { fromSettingValue, toSettingValue } from './format';

describe('supervisor setting values (spec §5)', () => {
  it('numeric text becomes a number, empty becomes null', () => {
    expect(toSettingValue('42')).toEqual({ ok: true, value: 42 });
    expect(toSettingValue(' 2.5 ')).toEqual({ ok: true, value: 2.5 });
    expect(toSettingValue('0')).toEqual({ ok: true, value: 0 });
    expect(toSettingValue('')).toEqual({ ok: true, value: null });
    expect(toSettingValue('   ')).toEqual({ ok: true, value: null });
  });
  it('anything else is refused', () => {
    expect(toSettingValue('abc')).toEqual({ ok: false });
    expect(toSettingValue('12px')).toEqual({ ok: false });
  });
  it('stored values show as text', () => {
    expect(fromSettingValue(null)).toBe('');
    expect(fromSettingValue(7)).toBe('7');
  });
});
