import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';
import { PATHS, ZLoginResponse } from '@tlprt/contract';
import { linkIn, waitForMail } from './mail';

/** Signs a new user up through the real guest API and the mailed link; returns the session token. */
export async function signUpByApi(
  request: APIRequestContext,
  baseURL: string,
  email: string,
  password: string,
) {
  const started = Date.now();
  const reg = await request.post('/auth/guest/register', {
    data: {
      login: email,
      createPath: `${baseURL}/createPassword/`,
      resetPath: `${baseURL}/resPassword/`,
      loginPath: `${baseURL}/`,
      offer: true,
      subscription: false,
    },
  });
  expect(reg.status()).toBe(201);
  const mail = await waitForMail(email, /.*/, started);
  const hash = linkIn(mail, '/createPassword/').split('/createPassword/')[1] as string;
  const set = await request.post('/auth/guest/set-new-password', {
    data: { hash, password, confirm: password },
  });
  expect(set.status()).toBe(200);
  const body = (await set.json()) as { access_token: string };
  return body.access_token;
}

/**
 * A session for a fixed address (a supervisor named in the server's configuration): signs in when the
 * account exists, as it does when Playwright retries a spec of the same run, else signs it up.
 */
export async function signInOrUpByApi(
  request: APIRequestContext,
  baseURL: string,
  email: string,
  password: string,
) {
  const login = await request.post(PATHS.auth.login, { data: { login: email, password } });
  if (login.status() === 200) return ZLoginResponse.parse(await login.json()).access_token;
  expect(login.status()).toBe(401);
  return signUpByApi(request, baseURL, email, password);
}
