import { useSyncExternalStore } from 'react';
import { closeAllModals, onCloseAllModals } from '../components/modalBus';
import { clearStoredTeam } from '../features/session/storage';
import type { ApiError } from './errors';
import { endSession, reloadPage } from './navigation';

/**
 * The popups of spec §2 "Popups" and §8, and THE one place that maps an HTTP status to one of them.
 * Later issues add their live-event popups as `notice`.
 */
export type Popup =
  | { kind: 'serverError' }
  | { kind: 'forbidden' }
  | { kind: 'cantPerform' }
  | { kind: 'notice'; title: string; text?: string; onOk?: () => void };

let current: Popup | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

export function showPopup(popup: Popup): void {
  current = popup;
  emit();
}

export function getPopup(): Popup | null {
  return current;
}

/** OK / close of the current popup; runs the popup's own consequence. */
export function confirmPopup(): void {
  const popup = current;
  current = null;
  emit();
  if (!popup) return;
  if (popup.kind === 'forbidden') {
    // Spec §2: "OK clears the current team and reloads".
    clearStoredTeam();
    reloadPage();
  } else if (popup.kind === 'notice') {
    popup.onOk?.();
  }
}

export function dismissPopup(): void {
  if (current?.kind === 'forbidden') {
    confirmPopup();
    return;
  }
  current = null;
  emit();
}

// A server event or a 403 closes every open modal, popups included (the forbidden one re-opens after).
onCloseAllModals(() => {
  if (current) {
    current = null;
    emit();
  }
});

export function usePopup(): Popup | null {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    getPopup,
    getPopup,
  );
}

/** "Can't perform this action" for callers that decide a failure deserves it (spec §8). */
export const showCantPerform = () => showPopup({ kind: 'cantPerform' });

/**
 * Status → popup (spec §8). 500 and network failures: server-error modal. On authenticated calls,
 * 401 ends the session and 403 shows the access-forbidden popup. Everything else is the caller's
 * (guest forms show field errors and the message).
 */
export function reportApiError(error: ApiError, authenticated: boolean): void {
  if (error.status === 0 || error.status >= 500) {
    showPopup({ kind: 'serverError' });
  } else if (authenticated && error.status === 401) {
    endSession();
  } else if (authenticated && error.status === 403) {
    closeAllModals();
    showPopup({ kind: 'forbidden' });
  }
}
