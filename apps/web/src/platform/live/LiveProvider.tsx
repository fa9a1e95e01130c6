import { PATHS } from '@tlprt/contract';
import { type ReactNode, useEffect } from 'react';
import { apiUrl } from '../api/client';
import { endSession } from '../api/navigation';
import { closeAllModals } from '../api/popups';
import { getToken } from '../session/storage';
import { dispatchLive } from './bus';
import { LiveStream } from './stream';

/** Keeps the live stream open while the signed-in layout is mounted. */
export function LiveProvider({ children }: { children: ReactNode }) {
  useEffect(() => {
    const stream = new LiveStream({
      url: apiUrl(PATHS.live.stream),
      getToken,
      onEvent: (event) => {
        // Spec §4: open modals close when a server event arrives; handlers may open new ones.
        closeAllModals();
        dispatchLive(event);
      },
      onSignOut: endSession,
    });
    stream.start();
    return () => stream.stop();
  }, []);
  return <>{children}</>;
}
