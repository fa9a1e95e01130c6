import type { TLiveEvent } from '@tlprt/contract';
import { useEffect, useRef } from 'react';
import { subscribeLive } from './bus';

/** Runs `handler` for every live event with the given code(s) while the component is mounted. */
export function useLiveEvent(codes: number | readonly number[], handler: (event: TLiveEvent) => void): void {
  const ref = useRef(handler);
  ref.current = handler;
  const key = typeof codes === 'number' ? String(codes) : codes.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `codes`
  useEffect(() => subscribeLive(codes, (e) => ref.current(e)), [key]);
}
