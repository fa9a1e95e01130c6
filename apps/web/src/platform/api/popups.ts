import { modals } from '@mantine/modals';
import { clearStoredTeam } from '../session/storage';
import { type ApiError, isApiError } from './errors';
import { endSession, reloadPage } from './navigation';

/**
 * The popups of spec §2 "Popups" and §8, and THE one place that maps an HTTP status to one of them.
 * They open in the modals manager (platform/ui/AppModals.tsx) like every modal; the live events' popups
 * (app/live/reactions.ts) are `notice`s.
 */
export type Popup =
  | { kind: 'serverError' }
  | { kind: 'forbidden' }
  | { kind: 'cantPerform' }
  | { kind: 'notice'; title: string; text?: string; onOk?: () => void };

// One popup at a time: a new one takes the place of the one shown, as several failing calls of one
// screen must not stack their server-error popups.
const POPUP_ID = 'app-popup';

// Set while modals are closed by the app rather than by the user: a popup closed that way has no
// consequence (the forbidden one does not reload when a server event or another 403 closes it).
let closingQuietly = false;
function quietly(close: () => void): void {
  closingQuietly = true;
  try {
    close();
  } finally {
    closingQuietly = false;
  }
}

/** Spec §4: "Modals close when access is forbidden or when a server event arrives". */
export function closeAllModals(): void {
  quietly(() => modals.closeAll());
}

export function showPopup(popup: Popup): void {
  quietly(() => modals.close(POPUP_ID));
  modals.openContextModal({
    modal: 'popup',
    modalId: POPUP_ID,
    innerProps: { popup },
    size: 'sm',
    withCloseButton: false,
    'aria-labelledby': 'popup-title',
    // Spec §2: the forbidden popup's OK clears the current team and reloads; closing it any other way
    // by the user (Escape, outside click) does the same, as there is nothing left to do on this team.
    onClose: () => {
      if (popup.kind === 'forbidden' && !closingQuietly) {
        clearStoredTeam();
        reloadPage();
      }
    },
  });
}

/** "Can't perform this action" for callers that decide a failure deserves it (spec §8). */
export const showCantPerform = () => showPopup({ kind: 'cantPerform' });

/** Whether reportApiError answers this status itself (a popup, or the end of the session). */
const answeredHere = (status: number, authenticated: boolean) =>
  status === 0 || status >= 500 || (authenticated && (status === 401 || status === 403));

/**
 * Status → popup (spec §8). 500 and network failures: server-error modal. On authenticated calls,
 * 401 ends the session and 403 closes every modal and shows the access-forbidden popup. Everything
 * else is the caller's (guest forms show field errors and the message).
 */
export function reportApiError(error: ApiError, authenticated: boolean): void {
  if (!answeredHere(error.status, authenticated)) return;
  if (error.status === 0 || error.status >= 500) {
    showPopup({ kind: 'serverError' });
  } else if (error.status === 401) {
    endSession();
  } else {
    closeAllModals();
    showPopup({ kind: 'forbidden' });
  }
}

/** A signed-in call's failure that a popup (or the end of the session) has already answered. */
export const popupShown = (error: unknown): boolean => isApiError(error) && answeredHere(error.status, true);

/** A signed-in call's refusal that no popup answered (400, 404, 409, 429…): the caller shows it, under
 *  its field or in a notice. */
export const refusalToShow = (error: unknown): error is ApiError =>
  isApiError(error) && error.status >= 400 && !answeredHere(error.status, true);
