import type { TLoginResponse } from '@tlprt/contract';
import { queryClient } from '../../platform/api/queryClient';
import { setStoredUserId, setToken } from '../../platform/session/storage';

/** A login-type response (login, set-new-password, recovery-accept) starts a session. */
export function startSession(response: TLoginResponse): void {
  queryClient.clear();
  setToken(response.access_token);
  setStoredUserId(response.data.user_id);
}
