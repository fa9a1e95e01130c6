import { useEffect } from 'react';

/**
 * Spec §4: "Modals close when access is forbidden or when a server event arrives". Every modal of the
 * app registers here (useCloseOnSignal); the live stream and the 403 mapping call closeAllModals().
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export function closeAllModals(): void {
  for (const l of [...listeners]) l();
}

export function onCloseAllModals(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Closes an open modal when closeAllModals() is signalled. */
export function useCloseOnSignal(opened: boolean, close: () => void): void {
  useEffect(() => {
    if (!opened) return;
    return onCloseAllModals(close);
  }, [opened, close]);
}
