import { PATHS } from '@tlprt/contract';

export interface TestStream {
  status: number;
  contentType: string | null;
  /** Everything received so far. */
  raw(): string;
  events(): Array<Record<string, unknown>>;
  /** Resolves once the received text satisfies `test`. */
  waitFor(test: (raw: string) => boolean, timeoutMs?: number): Promise<void>;
  waitForEvent(code: number, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens GET /auth/v1/sse/handle with fetch (as the web app does) and collects what arrives. */
export async function openStream(base: string, token: string): Promise<TestStream> {
  const ctrl = new AbortController();
  const res = await fetch(base + PATHS.live.stream, {
    headers: { authorization: `Bearer ${token}` },
    signal: ctrl.signal,
  });
  let raw = '';
  const listeners = new Set<() => void>();
  const decoder = new TextDecoder();
  const ended = (async () => {
    if (!res.body) return;
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        raw += decoder.decode(value, { stream: true });
        for (const l of listeners) l();
      }
    } catch {
      // Aborted by close().
    }
    for (const l of listeners) l();
  })();

  const events = () =>
    raw
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice('data: '.length)) as Record<string, unknown>);

  const waitFor = (test: (raw: string) => boolean, timeoutMs = 5000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (test(raw)) {
          listeners.delete(check);
          clearTimeout(timer);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`stream did not match within ${timeoutMs} ms; got: ${JSON.stringify(raw)}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });

  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    raw: () => raw,
    events,
    waitFor,
    async waitForEvent(code, timeoutMs) {
      await waitFor(() => events().some((e) => e.code === code), timeoutMs);
      const found = events().find((e) => e.code === code);
      if (!found) throw new Error('unreachable');
      return found;
    },
    ended,
    close: () => ctrl.abort(),
  };
}
