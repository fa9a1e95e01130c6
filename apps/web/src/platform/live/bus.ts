import type { TLiveEvent } from '@tlprt/contract';

type Handler = (event: TLiveEvent) => void;
const subscribers = new Set<{ codes: ReadonlySet<number>; handler: Handler }>();

/** Subscribes to one code or a list of codes; returns the unsubscribe function. */
export function subscribeLive(codes: number | readonly number[], handler: Handler): () => void {
  const entry = { codes: new Set(typeof codes === 'number' ? [codes] : codes), handler };
  subscribers.add(entry);
  return () => {
    subscribers.delete(entry);
  };
}

export function dispatchLive(event: TLiveEvent): void {
  for (const s of [...subscribers]) if (s.codes.has(event.code)) s.handler(event);
}
