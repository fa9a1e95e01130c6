import { STORAGE_KEYS, WEB_PATHS } from '@tlprt/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { loginReturningTo, pathAfterLogin, RETURN_PARAM } from './storage';

describe('where login leads', () => {
  afterEach(() => localStorage.clear());

  it('back to the dashboard address a signed-out visitor opened, its query and fragment kept', () => {
    const link = `${WEB_PATHS.statistics}?range=month&list=2`;
    const login = new URL(loginReturningTo(link), 'http://dashboard.test');
    expect(login.pathname).toBe(WEB_PATHS.login);
    expect(pathAfterLogin(login.searchParams.get(RETURN_PARAM))).toBe(link);
    expect(pathAfterLogin(`${WEB_PATHS.alerts}#top`)).toBe(`${WEB_PATHS.alerts}#top`);
  });

  it('never to another site nor to a screen that is not the dashboard', () => {
    localStorage.setItem(STORAGE_KEYS.routeName, 'origins');
    for (const next of [
      'https://evil.example/statistics',
      '//evil.example/statistics',
      '/\\evil.example/statistics',
      'statistics',
      '/register',
      '/nope',
      '',
      null,
    ])
      expect(pathAfterLogin(next), String(next)).toBe(WEB_PATHS.origins);
  });

  it('without one: the stored screen, else Statistics', () => {
    expect(pathAfterLogin()).toBe(WEB_PATHS.statistics);
    localStorage.setItem(STORAGE_KEYS.routeName, 'alerts');
    expect(pathAfterLogin(null)).toBe(WEB_PATHS.alerts);
  });
});
