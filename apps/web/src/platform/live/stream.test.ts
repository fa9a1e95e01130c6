import { EventCode, PATHS, TIMINGS, type TLiveEvent } from '@tlprt/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SseParser } from './sseParser';
import { LiveStream } from './stream';

/** A 200 event-stream response that sends `chunks` and ends (the server closing the stream). */
function streamResponse(chunks: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

describe('live stream reconnect', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries after 1 s, doubling up to 64 s', async () => {
    // The only fake of the suite: the browser tests cover the real stream.
    const fakeFetch = vi.fn<typeof fetch>(async () => {
      throw new TypeError('network down');
    });
    const stream = new LiveStream({
      url: PATHS.live.stream,
      getToken: () => 'tok',
      onEvent: () => {},
      onSignOut: () => {},
      fetchImpl: fakeFetch,
    });
    stream.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(fakeFetch).toHaveBeenCalledTimes(1);
    const expected = [1000, 2000, 4000, 8000, 16000, 32000, 64000, 64000, 64000];
    expect(expected[0]).toBe(TIMINGS.streamRetryStartMs);
    for (const [i, delay] of expected.entries()) {
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(fakeFetch).toHaveBeenCalledTimes(i + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(fakeFetch).toHaveBeenCalledTimes(i + 2);
    }
    const init = fakeFetch.mock.calls[0]?.[1];
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer tok');
    stream.stop();
    await vi.advanceTimersByTimeAsync(TIMINGS.streamRetryMaxMs * 2);
    expect(fakeFetch).toHaveBeenCalledTimes(expected.length + 1);
  });

  it('resets the delay to 1 s after a good connection', async () => {
    const delays: number[] = [];
    const events: TLiveEvent[] = [];
    let call = 0;
    const fakeFetch = vi.fn<typeof fetch>(async () => {
      call += 1;
      if (call === 4) return streamResponse([': ping\n\n', 'data: {"code":10,"team_id":3}\n\n']);
      throw new TypeError('network down');
    });
    const stream = new LiveStream({
      url: '/sse',
      getToken: () => 'tok',
      onEvent: (e) => events.push(e),
      onSignOut: () => {},
      fetchImpl: fakeFetch,
      onRetryScheduled: (d) => delays.push(d),
    });
    stream.start();
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 + 1000 + 2000);
    stream.stop();
    // fail, fail, fail, good (ends) → 1 s again, then fail → 2 s
    expect(delays).toEqual([1000, 2000, 4000, 1000, 2000, 4000]);
    expect(events).toEqual([{ code: 10, team_id: 3 }]);
  });

  it.each([EventCode.ForcedLogoutSession, EventCode.ForcedLogoutPassword, EventCode.ForcedLogoutAccount])(
    'signs out on code %i and stops reconnecting',
    async (code) => {
      const onSignOut = vi.fn();
      const onEvent = vi.fn();
      const fakeFetch = vi.fn<typeof fetch>(async () => streamResponse([`data: {"code":${code}}\n\n`]));
      const stream = new LiveStream({
        url: '/sse',
        getToken: () => 'tok',
        onEvent,
        onSignOut,
        fetchImpl: fakeFetch,
      });
      stream.start();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(onSignOut).toHaveBeenCalledTimes(1);
      expect(onEvent).not.toHaveBeenCalled();
      expect(fakeFetch).toHaveBeenCalledTimes(1);
    },
  );

  it('signs out when the stream answers 401', async () => {
    const onSignOut = vi.fn();
    const fakeFetch = vi.fn<typeof fetch>(async () => new Response('{"message":"no"}', { status: 401 }));
    const stream = new LiveStream({
      url: '/sse',
      getToken: () => 'tok',
      onEvent: () => {},
      onSignOut,
      fetchImpl: fakeFetch,
    });
    stream.start();
    await vi.advanceTimersByTimeAsync(5000);
    expect(onSignOut).toHaveBeenCalledTimes(1);
    expect(fakeFetch).toHaveBeenCalledTimes(1);
  });
});

describe('event-stream parser', () => {
  it('joins chunks, skips comments and ignores partial events', () => {
    const p = new SseParser();
    expect(p.feed(': ping\n\nda')).toEqual([]);
    expect(p.feed('ta: {"code":70,"new_role":30}\r\n')).toEqual([]);
    expect(p.feed('\r\ndata: {"code":61}\n\ndata: {"co')).toEqual([
      '{"code":70,"new_role":30}',
      '{"code":61}',
    ]);
    expect(p.feed('de":1}\n\n')).toEqual(['{"code":1}']);
  });
});
