import {
  INGEST_ERRORS,
  PLAYER_MAX_PENDING_REPORTS,
  REPORT_COUNT_LIMITS,
  REPORT_MAX_STARTUPS,
  REPORT_STREAM_MAX,
  STARTUP_MAX_MS,
  type TIngestReport,
  type TIngestResponse,
  ZIngestReport,
} from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import type { ExperienceCounts } from '../src/experience.js';
import { NO_VERDICT, newSessionId, Reporter, streamName } from '../src/reporter.js';

/** A send function that records each body and answers as told: true (a 2xx), false (failed or
 *  refused), or the server's verdict. */
function recorder() {
  const sent: Array<{ reports: TIngestReport[]; keepalive: boolean }> = [];
  let answer: () => Promise<boolean | TIngestResponse> = async () => true;
  const send = (body: string, keepalive: boolean) => {
    sent.push({ reports: (JSON.parse(body) as { reports: TIngestReport[] }).reports, keepalive });
    return answer().then((a) => (a === true ? NO_VERDICT : a === false ? null : a));
  };
  return {
    sent,
    send,
    answer(a: () => Promise<boolean | TIngestResponse>) {
      answer = a;
    },
  };
}

const T = 1_800_000_000;

describe('Reporter', () => {
  it('reports only the bytes since the previous report, with an increasing seq', async () => {
    const r = recorder();
    const rep = new Reporter('KEY', 'sess', r.send, () => T);
    rep.add({ cdnBytes: 100, p2pBytes: 10 });
    rep.add({ cdnBytes: 50, p2pBytes: 0 });
    await rep.flush();
    rep.add({ cdnBytes: 7, p2pBytes: 3 });
    await rep.flush();
    expect(r.sent.map((s) => s.reports)).toEqual([
      [{ apiKey: 'KEY', sessionId: 'sess', ts: T, cdnBytes: 150, p2pBytes: 10, seq: 0 }],
      [{ apiKey: 'KEY', sessionId: 'sess', ts: T, cdnBytes: 7, p2pBytes: 3, seq: 1 }],
    ]);
    expect(rep.unacknowledged).toBe(0);
  });

  it('sends each count under its contract name, in the contract’s order: cdnBytes and p2pBytes always, the others above 0', async () => {
    const bodies: string[] = [];
    const rep = new Reporter(
      'KEY',
      'sess',
      async (body) => {
        bodies.push(body);
        return NO_VERDICT;
      },
      () => T,
    );
    rep.add({ p2pCrossBytes: 1, p2pBytes: 5 });
    rep.add({ rejectedBytes: 2, cdnBytes: 0 });
    await rep.flush();
    rep.add({ p2pBytes: 4, p2pCrossBytes: 0 });
    await rep.flush();
    expect(bodies).toEqual([
      `{"reports":[{"apiKey":"KEY","sessionId":"sess","ts":${T},"cdnBytes":0,"p2pBytes":5,"rejectedBytes":2,"p2pCrossBytes":1,"seq":0}]}`,
      `{"reports":[{"apiKey":"KEY","sessionId":"sess","ts":${T},"cdnBytes":0,"p2pBytes":4,"seq":1}]}`,
    ]);
  });

  it('sends nothing when nothing was received', async () => {
    const r = recorder();
    const rep = new Reporter('KEY', 'sess', r.send, () => T);
    await rep.flush();
    rep.add({ cdnBytes: 0, p2pBytes: 0 });
    await rep.flush();
    expect(r.sent).toEqual([]);
  });

  it('passes keepalive on (the page-hide send)', async () => {
    const r = recorder();
    const rep = new Reporter('KEY', 'sess', r.send, () => T);
    rep.add({ cdnBytes: 1, p2pBytes: 0 });
    await rep.flush(true);
    expect(r.sent[0]?.keepalive).toBe(true);
  });

  it('keeps a report whose send failed and resends it, same seq, with the next one; an acknowledgment drops it', async () => {
    const r = recorder();
    let t = T;
    const rep = new Reporter('KEY', 'sess', r.send, () => t);
    r.answer(async () => false);
    rep.add({ cdnBytes: 1000, p2pBytes: 0 });
    await rep.flush();
    expect(rep.unacknowledged).toBe(1);

    r.answer(async () => {
      throw new TypeError('network down');
    });
    t += 10;
    rep.add({ cdnBytes: 0, p2pBytes: 200 });
    await rep.flush();
    expect(rep.unacknowledged).toBe(2);

    r.answer(async () => true);
    t += 10;
    rep.add({ cdnBytes: 30, p2pBytes: 0 });
    await rep.flush();
    const first = { apiKey: 'KEY', sessionId: 'sess', ts: T, cdnBytes: 1000, p2pBytes: 0, seq: 0 };
    const second = { apiKey: 'KEY', sessionId: 'sess', ts: T + 10, cdnBytes: 0, p2pBytes: 200, seq: 1 };
    const third = { apiKey: 'KEY', sessionId: 'sess', ts: T + 20, cdnBytes: 30, p2pBytes: 0, seq: 2 };
    expect(r.sent.map((s) => s.reports)).toEqual([[first], [first, second], [first, second, third]]);
    expect(rep.unacknowledged).toBe(0);

    await rep.flush();
    expect(r.sent).toHaveLength(3);
  });

  it('sends one request at a time; what gathers meanwhile survives the acknowledgment of the earlier batch', async () => {
    const r = recorder();
    const rep = new Reporter('KEY', 'sess', r.send, () => T);
    let acknowledge: (ok: boolean) => void = () => {};
    r.answer(() => new Promise<boolean | TIngestResponse>((resolve) => (acknowledge = resolve)));
    rep.add({ cdnBytes: 10, p2pBytes: 0 });
    const inFlight = rep.flush();
    rep.add({ cdnBytes: 20, p2pBytes: 0 });
    const meanwhile = rep.flush();
    expect(r.sent).toHaveLength(1);
    acknowledge(true);
    await Promise.all([inFlight, meanwhile]);
    expect(rep.unacknowledged).toBe(1);

    r.answer(async () => true);
    await rep.flush();
    expect(r.sent[1]?.reports).toEqual([
      { apiKey: 'KEY', sessionId: 'sess', ts: T, cdnBytes: 20, p2pBytes: 0, seq: 1 },
    ]);
    expect(rep.unacknowledged).toBe(0);
  });

  it('a keepalive flush (page hide, detach) goes at once while a send is out, the unacknowledged batch with it', async () => {
    const r = recorder();
    const rep = new Reporter('KEY', 'sess', r.send, () => T);
    const answers: Array<(ok: boolean) => void> = [];
    r.answer(() => new Promise<boolean | TIngestResponse>((resolve) => answers.push(resolve)));
    rep.add({ cdnBytes: 10, p2pBytes: 0 });
    const inFlight = rep.flush();
    rep.add({ cdnBytes: 0, p2pBytes: 5 });
    const hidden = rep.flush(true);
    expect(r.sent).toHaveLength(2);
    expect(r.sent[1]?.keepalive).toBe(true);
    expect(r.sent[1]?.reports.map((x) => [x.seq, x.cdnBytes, x.p2pBytes])).toEqual([
      [0, 10, 0],
      [1, 0, 5],
    ]);
    // The page fires pagehide after visibilitychange: nothing new, no third request.
    void rep.flush(true);
    expect(r.sent).toHaveLength(2);

    for (const acknowledge of answers) acknowledge(true);
    await Promise.all([inFlight, hidden]);
    expect(rep.unacknowledged).toBe(0);
  });

  it('a keepalive flush whose request failed is sent again by the next flush', async () => {
    const r = recorder();
    const rep = new Reporter('KEY', 'sess', r.send, () => T);
    r.answer(async () => false);
    rep.add({ cdnBytes: 3, p2pBytes: 0 });
    await rep.flush(true);
    r.answer(async () => true);
    await rep.flush();
    expect(r.sent.map((x) => x.reports.map((y) => y.seq))).toEqual([[0], [0]]);
    expect(rep.unacknowledged).toBe(0);
  });

  it(`keeps at most ${PLAYER_MAX_PENDING_REPORTS} unacknowledged reports, dropping the oldest`, async () => {
    const r = recorder();
    const rep = new Reporter('KEY', 'sess', r.send, () => T);
    r.answer(async () => false);
    const n = PLAYER_MAX_PENDING_REPORTS + 5;
    for (let i = 0; i < n; i++) {
      rep.add({ cdnBytes: i + 1, p2pBytes: 0 });
      await rep.flush();
    }
    expect(rep.unacknowledged).toBe(PLAYER_MAX_PENDING_REPORTS);
    const last = r.sent.at(-1)?.reports ?? [];
    expect(last.map((x) => x.seq)).toEqual(
      Array.from({ length: PLAYER_MAX_PENDING_REPORTS }, (_, i) => i + 5),
    );
    expect(last.at(-1)).toMatchObject({ seq: n - 1, cdnBytes: n });
  });
});

/** An experience source that hands out what the test queued, once. */
function experienceQueue() {
  let next: Partial<ExperienceCounts> = {};
  return {
    set(x: Partial<ExperienceCounts>) {
      next = x;
    },
    take(): ExperienceCounts {
      const out = { playMs: 0, stallMs: 0, startupMs: [], plays: 0, failures: 0, ...next };
      next = {};
      return out;
    },
  };
}

const STREAM = 'https://cdn.customer.example/live/index.m3u8';

describe('Reporter: viewer experience', () => {
  it('reports a viewer that only played (an already buffered video: no bytes), with its peers and stream', async () => {
    const r = recorder();
    const x = experienceQueue();
    let peers = 3;
    const rep = new Reporter('KEY', 'sess', r.send, () => T, {
      experience: x.take,
      peers: () => peers,
      stream: STREAM,
    });
    x.set({ playMs: 9876 });
    await rep.flush();
    expect(r.sent[0]?.reports).toEqual([
      {
        apiKey: 'KEY',
        sessionId: 'sess',
        ts: T,
        cdnBytes: 0,
        p2pBytes: 0,
        playMs: 9876,
        peers: 3,
        stream: STREAM,
        seq: 0,
      },
    ]);
    expect(ZIngestReport.safeParse(r.sent[0]?.reports[0]).success).toBe(true);

    // Nothing lived, nothing received: no report, whatever the peers.
    peers = 5;
    await rep.flush();
    expect(r.sent).toHaveLength(1);

    x.set({ stallMs: 1200, startupMs: [640], plays: 1, failures: 1 });
    rep.add({ cdnBytes: 500, p2pBytes: 0 });
    peers = 0;
    await rep.flush();
    expect(r.sent[1]?.reports).toEqual([
      {
        apiKey: 'KEY',
        sessionId: 'sess',
        ts: T,
        cdnBytes: 500,
        p2pBytes: 0,
        stallMs: 1200,
        startupMs: [640],
        plays: 1,
        failures: 1,
        stream: STREAM,
        seq: 1,
      },
    ]);
  });

  it('keeps each count within the contract’s ceiling; a startup longer than the contract’s is none', async () => {
    const r = recorder();
    const x = experienceQueue();
    const rep = new Reporter('KEY', 'sess', r.send, () => T, { experience: x.take, peers: () => 5000 });
    const startups = Array.from({ length: REPORT_MAX_STARTUPS + 5 }, (_, i) => i * 10.4);
    x.set({
      playMs: REPORT_COUNT_LIMITS.playMs + 1,
      stallMs: REPORT_COUNT_LIMITS.stallMs * 2,
      startupMs: [STARTUP_MAX_MS + 1, ...startups],
      plays: REPORT_COUNT_LIMITS.plays + 50,
      failures: REPORT_COUNT_LIMITS.failures + 1,
    });
    await rep.flush();
    const report = r.sent[0]?.reports[0];
    expect(report).toMatchObject({
      playMs: REPORT_COUNT_LIMITS.playMs,
      stallMs: REPORT_COUNT_LIMITS.stallMs,
      plays: REPORT_COUNT_LIMITS.plays,
      failures: REPORT_COUNT_LIMITS.failures,
      peers: REPORT_COUNT_LIMITS.peers,
      startupMs: startups.slice(0, REPORT_MAX_STARTUPS).map((ms) => Math.round(ms)),
    });
    expect(ZIngestReport.safeParse(report).success).toBe(true);
  });

  it('a report whose send failed goes again with its experience as it was; the next one has only what came since', async () => {
    const r = recorder();
    const x = experienceQueue();
    const rep = new Reporter('KEY', 'sess', r.send, () => T, { experience: x.take });
    r.answer(async () => false);
    x.set({ playMs: 10_000, startupMs: [300], plays: 1 });
    await rep.flush();
    r.answer(async () => true);
    x.set({ playMs: 4000, stallMs: 6000 });
    await rep.flush();
    expect(
      r.sent[1]?.reports.map(({ seq, playMs, stallMs, startupMs, plays }) => ({
        seq,
        playMs,
        stallMs,
        startupMs,
        plays,
      })),
    ).toEqual([
      { seq: 0, playMs: 10_000, stallMs: undefined, startupMs: [300], plays: 1 },
      { seq: 1, playMs: 4000, stallMs: 6000, startupMs: undefined, plays: undefined },
    ]);
    expect(rep.unacknowledged).toBe(0);
  });

  it('a session the server forgot sends its experience again under the new one', async () => {
    const r = recorder();
    const x = experienceQueue();
    const rep = new Reporter('KEY', 'old', r.send, () => T, { experience: x.take, peers: () => 2 });
    x.set({ playMs: 5000, stallMs: 100, startupMs: [700], plays: 1, failures: 1 });
    r.answer(async () => ({
      accepted: 0,
      rejected: 1,
      errors: [{ index: 0, message: INGEST_ERRORS.sessionForgotten }],
    }));
    await rep.flush();
    r.answer(async () => true);
    x.set({ playMs: 2000, startupMs: [250] });
    await rep.flush();
    const again = r.sent[1]?.reports ?? [];
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({
      cdnBytes: 0,
      playMs: 7000,
      stallMs: 100,
      startupMs: [700, 250],
      plays: 1,
      failures: 1,
      peers: 2,
    });
    expect(again[0]?.sessionId).not.toBe('old');
  });
});

describe('streamName', () => {
  const page = 'https://customer.example/watch/';
  it('is the stream’s URL without query, fragment or credentials, resolved against the page', () => {
    expect(streamName('https://u:p@cdn.example/a/index.m3u8?token=secret#t=10', page)).toBe(
      'https://cdn.example/a/index.m3u8',
    );
    expect(streamName('media/index.m3u8?x=1', page)).toBe('https://customer.example/watch/media/index.m3u8');
  });
  it('is none without an http(s) URL or beyond the contract’s length', () => {
    expect(streamName(undefined, page)).toBeUndefined();
    expect(streamName('blob:https://customer.example/0b5e', page)).toBeUndefined();
    expect(streamName('http://[bad', page)).toBeUndefined();
    expect(streamName(`https://cdn.example/${'a'.repeat(REPORT_STREAM_MAX)}.m3u8`, page)).toBeUndefined();
  });
});

describe('newSessionId', () => {
  it('is 128 random bits in hex, new each time', () => {
    const a = newSessionId();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newSessionId()).not.toBe(a);
  });
  it('goes on under a new session when the server forgot this one, sending the refused bytes again', async () => {
    const r = recorder();
    const rep = new Reporter('KEY', 'old', r.send, () => T);
    rep.add({ cdnBytes: 100, p2pBytes: 20, rejectedBytes: 3 });
    r.answer(async () => ({
      accepted: 0,
      rejected: 1,
      errors: [{ index: 0, message: INGEST_ERRORS.sessionForgotten }],
    }));
    await rep.flush();
    r.answer(async () => true);
    rep.add({ cdnBytes: 1, p2pBytes: 0 });
    await rep.flush();
    const again = r.sent[1]?.reports ?? [];
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ cdnBytes: 101, p2pBytes: 20, rejectedBytes: 3 });
    expect(again[0]?.sessionId).not.toBe('old');
    expect(again[0]?.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(rep.unacknowledged).toBe(0);
  });
});
