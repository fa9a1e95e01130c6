/** Milliseconds since the epoch. Injected into services so tests can move time (link expiry). */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();
