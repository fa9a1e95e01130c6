import { openStream, type TestStream } from './sse.js';

/** Opens one live stream per user (token) and waits until each is connected. */
export async function streamsOf<K extends string>(base: string, users: Record<K, { token: string }>) {
  const entries = await Promise.all(
    Object.entries<{ token: string }>(users).map(async ([k, u]) => {
      const s = await openStream(base, u.token);
      await s.waitFor((raw) => raw.includes(': connected'));
      return [k, s] as const;
    }),
  );
  const streams = Object.fromEntries(entries) as Record<K, TestStream>;
  return {
    ...streams,
    closeAll: () => {
      for (const [, s] of entries) s.close();
    },
  };
}

/** Lets in-flight events land before asserting that a stream got nothing. */
export const settle = (ms = 150) => new Promise((r) => setTimeout(r, ms));
