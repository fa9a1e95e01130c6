import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../../platform/api/client';
import { clearToken, getToken } from '../../platform/session/storage';
import { type LinkOutcome, outcomeOf } from './actions';

/** What an e-mail link screen shows: its outcome, still working, or (a link whose action waits for
 *  a form) ready for it. */
export type LinkState = LinkOutcome | 'working' | 'ready';

/**
 * An e-mail link's hash check, then its action. The hash first: a dead link says so before asking
 * anybody to sign in. Signed in when the check answered, the action runs at once; signed out, the
 * screen asks for the "Confirm action" login, whose success calls `perform`. A 401 of the action signs
 * out and asks again.
 */
export function useLinkAction<T>({
  hash,
  kinds,
  enabled,
  run,
  onSuccess,
  failAsExpired = false,
  auto = true,
}: {
  hash: string;
  /** The link kinds this screen accepts (the check's answer names the hash's kind). */
  kinds: readonly string[];
  /** False for a link the screen does not know: nothing is asked. */
  enabled: boolean;
  run: () => Promise<T>;
  onSuccess?: (result: T) => void;
  /** Links that know only success and "This link is expired". */
  failAsExpired?: boolean;
  /** False when a form of the screen takes over once the hash is valid: the state is then `ready`. */
  auto?: boolean;
}): { state: LinkState; perform: () => void } {
  const action = useMutation({
    mutationFn: run,
    onSuccess,
    onError: (error) => {
      if (outcomeOf(error) === 'login') clearToken();
    },
  });
  // The hash is asked once: a sign-in clears the query cache, which would otherwise ask again.
  const answered = useRef(false);
  const check = useQuery({
    queryKey: ['email-link', hash, ...kinds],
    queryFn: async () => ({ valid: await api.checkHash(hash, kinds), signedIn: getToken() !== null }),
    enabled: enabled && action.isIdle && !answered.current,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });

  // The action of a single-use link runs once by itself (StrictMode runs effects twice).
  const { mutate } = action;
  useEffect(() => {
    if (answered.current || !check.data) return;
    answered.current = true;
    if (check.data.valid && check.data.signedIn && auto) mutate();
  }, [check.data, mutate, auto]);

  let state: LinkState = 'working';
  if (action.isSuccess) state = 'success';
  else if (action.isError) {
    const outcome = outcomeOf(action.error);
    state = outcome === 'cantPerform' && failAsExpired ? 'expired' : outcome;
  } else if (action.isIdle && check.data)
    state = !check.data.valid ? 'expired' : !auto ? 'ready' : check.data.signedIn ? 'working' : 'login';
  return { state, perform: () => mutate() };
}
