import type { TRouteName } from '@tlprt/contract';
import { useEffect } from 'react';
import { setRouteName } from './storage';

/** Screens that "store their route name" (spec §2) so login can send the user back there. */
export function useRouteName(name: TRouteName): void {
  useEffect(() => setRouteName(name), [name]);
}
