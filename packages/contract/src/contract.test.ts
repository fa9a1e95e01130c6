import { describe, expect, it } from 'vitest';
import {
  canCreateTeam,
  canEditOwnProfile,
  DICTIONARY_NAMES,
  ENUM_DICTIONARIES,
  findTimeZone,
  isBlockedOrDeleting,
  isPlatformSupervisor,
  issuesToFieldErrors,
  leavesTeamWithoutAdmin,
  MSG,
  mayLeaveTeam,
  Role,
  TIME_ZONES,
  timeZoneText,
  UserStatus,
  ZCreateTeamRequest,
  ZLoginRequest,
  ZRegisterRequest,
  ZSetNewPasswordRequest,
  ZUpdateUserRequest,
  zoneOffsetMinutes,
} from './index.js';

const links = { createPath: 'http://h/c/', resetPath: 'http://h/r/', loginPath: 'http://h/' };

describe('contract schemas', () => {
  // "All fields are required" is the web form's (platform/form.ts; LoginForm.test.tsx shows it).
  it('login: the first message of each field, as the server answers and the forms show it', () => {
    const one = ZLoginRequest.safeParse({ login: 'x', password: '' });
    expect(one.success || issuesToFieldErrors(one.error.issues)).toEqual({
      login: MSG.invalidEmail,
      password: MSG.required,
    });
  });

  it('trims and lower-cases the e-mail', () => {
    expect(ZLoginRequest.parse({ login: '  Ada@Example.COM ', password: 'p' }).login).toBe('ada@example.com');
  });

  it('register: the terms must be agreed; multipart flags are understood', () => {
    expect(ZRegisterRequest.safeParse({ login: 'a@b.co', ...links, offer: '0' }).success).toBe(false);
    const ok = ZRegisterRequest.parse({ login: 'a@b.co', ...links, offer: '1', subscription: 'on' });
    expect(ok.offer && ok.subscription).toBe(true);
    expect(
      ZRegisterRequest.safeParse({ login: 'a@b.co', ...links, createPath: 'javascript:alert(1)', offer: 1 })
        .success,
    ).toBe(false);
  });

  it('new password: minimum 6 symbols and equal confirmation', () => {
    const short = ZSetNewPasswordRequest.safeParse({ hash: 'abc', password: '12345', confirm: '12345' });
    expect(short.success || short.error.issues.map((i) => i.message)).toContain(MSG.passwordMin);
    const mismatch = ZSetNewPasswordRequest.safeParse({
      hash: 'abc',
      password: '123456',
      confirm: '1234567',
    });
    expect(mismatch.success || issuesToFieldErrors(mismatch.error.issues)).toEqual({
      confirm: MSG.passwordsDoNotMatch,
    });
  });

  it('team name and profile fields have their maximum of 30', () => {
    expect(ZCreateTeamRequest.safeParse({ name: 'x'.repeat(30) }).success).toBe(true);
    expect(ZCreateTeamRequest.safeParse({ name: 'x'.repeat(31) }).success).toBe(false);
    expect(ZCreateTeamRequest.safeParse({ name: '   ' }).success).toBe(false);
    expect(ZUpdateUserRequest.safeParse({ phone: '1'.repeat(31) }).success).toBe(false);
    expect(ZUpdateUserRequest.safeParse({ image: 12 }).success).toBe(false);
    expect(ZUpdateUserRequest.safeParse({ image: '11' }).success).toBe(true);
    expect(ZUpdateUserRequest.safeParse({ password_hash: 'x' }).success).toBe(false);
  });
});

describe('reference data', () => {
  it('time zone 37 is UTC and every zone is a real IANA zone', () => {
    expect(findTimeZone(37)?.name).toBe('UTC');
    expect(timeZoneText('UTC')).toBe('UTC');
    for (const z of TIME_ZONES) expect(() => zoneOffsetMinutes(z.name)).not.toThrow();
    expect(zoneOffsetMinutes('Asia/Kolkata')).toBe(330);
    expect(new Set(TIME_ZONES.map((z) => z.id)).size).toBe(TIME_ZONES.length);
  });

  it('names 19 dictionaries (spec 18, and key_setting_102 of docs/DESIGN.md §14); all but the two ISO lists are fixed here', () => {
    expect(DICTIONARY_NAMES).toHaveLength(19);
    const fixed = Object.keys(ENUM_DICTIONARIES);
    expect(DICTIONARY_NAMES.filter((n) => !fixed.includes(n)).sort()).toEqual([
      'countries_ISO',
      'currency_ISO',
    ]);
  });
});

describe('policy rules with one home', () => {
  it('blocked (30) and deleting (40) users may neither edit a profile nor create a team; others may', () => {
    for (const userStatusId of [UserStatus.Blocked, UserStatus.Deleting]) {
      expect(isBlockedOrDeleting({ userStatusId })).toBe(true);
      expect(canEditOwnProfile({ userStatusId })).toBe(false);
      expect(canCreateTeam({ userStatusId })).toBe(false);
    }
    expect(canCreateTeam({ userStatusId: UserStatus.Active })).toBe(true);
    expect(canEditOwnProfile({ userStatusId: UserStatus.Active })).toBe(true);
  });

  it('the sole admin cannot be demoted, removed or leave; with a second admin or as a non-admin one can', () => {
    expect(leavesTeamWithoutAdmin(Role.Admin, Role.Viewer, 1)).toBe(true);
    expect(leavesTeamWithoutAdmin(Role.Admin, null, 1)).toBe(true);
    expect(leavesTeamWithoutAdmin(Role.Admin, Role.Admin, 1)).toBe(false);
    expect(leavesTeamWithoutAdmin(Role.Admin, Role.Viewer, 2)).toBe(false);
    expect(leavesTeamWithoutAdmin(Role.Viewer, null, 1)).toBe(false);
    expect(mayLeaveTeam(Role.Admin, 3, 1)).toBe(false);
    expect(mayLeaveTeam(Role.Admin, 3, 2)).toBe(true);
    expect(mayLeaveTeam(Role.BillingMaster, 1, 0)).toBe(false);
    expect(mayLeaveTeam(Role.BillingMaster, 2, 1)).toBe(true);
  });

  it('the supervisor flag is the platform supervisor', () => {
    expect(isPlatformSupervisor({ supervisor: true })).toBe(true);
    expect(isPlatformSupervisor({ supervisor: false })).toBe(false);
  });
});
