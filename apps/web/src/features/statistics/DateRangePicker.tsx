import { DatePickerInput } from '@mantine/dates';
import { MSG_STATS } from '@tlprt/contract';
import { useEffect, useState } from 'react';

type Pick = [string | null, string | null];

/**
 * The custom dates beside the range switch (issue 39): whole days from `minDay` to `maxDay` (today),
 * in the view's offset. Both days picked → `onChange`; the clear button → `onChange(null)` (the rolling
 * range again). `check` refuses days no range can serve (longer than its longest window), said under
 * the field.
 */
export function DateRangePicker({
  value,
  minDay,
  maxDay,
  check,
  onChange,
}: {
  value: { from: string; to: string } | null;
  minDay: string;
  maxDay: string;
  check: (from: string, to: string) => string | null;
  onChange: (dates: { from: string; to: string } | null) => void;
}) {
  const [draft, setDraft] = useState<Pick>(value ? [value.from, value.to] : [null, null]);
  const [error, setError] = useState<string | null>(null);
  // Another view (a link, the back button, a range chosen) shows its own dates.
  useEffect(() => {
    setDraft(value ? [value.from, value.to] : [null, null]);
    setError(null);
  }, [value]);
  const pick = (next: Pick) => {
    setDraft(next);
    const [from, to] = next;
    if (from === null && to === null) {
      setError(null);
      if (value) onChange(null);
      return;
    }
    if (from === null || to === null) return;
    const refused = check(from, to);
    setError(refused);
    if (!refused) onChange({ from, to });
  };
  return (
    <DatePickerInput
      type="range"
      value={draft}
      onChange={(v) => pick(v as Pick)}
      allowSingleDateInRange
      clearable
      minDate={minDay}
      maxDate={maxDay}
      valueFormat="D MMM YYYY"
      placeholder={MSG_STATS.customDates}
      // Mantine's placeholder grey is 2.1:1 on white; the dimmed text colour passes WCAG AA.
      styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
      aria-label={MSG_STATS.customDates}
      error={error}
      radius="md"
      miw={200}
      data-testid="stats-dates"
    />
  );
}
