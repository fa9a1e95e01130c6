import {
  INGEST_ERRORS,
  PLAYER_MAX_PENDING_REPORTS,
  type TIngestReport,
  type TIngestResponse,
} from '@tlprt/contract';
import { describe, expect, it } from 'vitest';
import { NO_VERDICT, newSessionId, Reporter } from '../src/reporter.js';

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
    rep.add(100, 10);
    rep.add(50, 0);
    await rep.flush();
    rep.add(7, 3);
    await rep.flush();
    expect(r.sent.map((s) => s.reports)).toEqual([
      [{ apiKey: 'KEY', sessionId: 'sess', ts: T, cdnBytes: 150, p2pBytes: 10, seq: 0 }],
      [{ apiKey: 'KEY', sessionId: 'sess', ts: T, cdnBytes: 7, p2pBytes: 3, seq: 1 }],
    ]);
    expect(rep.unacknowledged).toBe(0);
  });

  it('sends nothing when nothing was received', async () => {
    const r = recorder();
    const rep = new Reporter('KEY', 'sess', r.send, () => T);
    await rep.flush();
    rep.add(0, 0);
    await rep.flush();
    expect(r.sent).toEqual([]);
  });

  it('passes keepalive on (the page-hide send)', async () => {
    const r = recorder();
    const rep = new Reporter('KEY', 'sess', r.send, () => T);
    rep.add(1, 0);
    await rep.flush(true);
    expect(r.sent[0]?.keepalive).toBe(true);
  });

  it('keeps a report whose send failed and resends it, same seq, with the next one; an acknowledgment drops it', async () => {
    const r = recorder();
    let t = T;
    const rep = new Reporter('KEY', 'sess', r.send, () => t);
    r.answer(async () => false);
    rep.add(1000, 0);
    await rep.flush();
    expect(rep.unacknowledged).toBe(1);

    r.answer(async () => {
      throw new TypeError('network down');
    });
    t += 10;
    rep.add(0, 200);
    await rep.flush();
    expect(rep.unacknowledged).toBe(2);

    r.answer(async () => true);
    t += 10;
    rep.add(30, 0);
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
    rep.add(10, 0);
    const inFlight = rep.flush();
    rep.add(20, 0);
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
    rep.add(10, 0);
    const inFlight = rep.flush();
    rep.add(0, 5);
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
    rep.add(3, 0);
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
      rep.add(i + 1, 0);
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

describe('newSessionId', () => {
  it('is 128 random bits in hex, new each time', () => {
    const a = newSessionId();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newSessionId()).not.toBe(a);
  });
  it('goes on under a new session when the server forgot this one, sending the refused bytes again', async () => {
    const r = recorder();
    const rep = new Reporter('KEY', 'old', r.send, () => T);
    rep.add(100, 20, 3);
    r.answer(async () => ({
      accepted: 0,
      rejected: 1,
      errors: [{ index: 0, message: INGEST_ERRORS.sessionForgotten }],
    }));
    await rep.flush();
    r.answer(async () => true);
    rep.add(1, 0);
    await rep.flush();
    const again = r.sent[1]?.reports ?? [];
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ cdnBytes: 101, p2pBytes: 20, rejectedBytes: 3 });
    expect(again[0]?.sessionId).not.toBe('old');
    expect(again[0]?.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(rep.unacknowledged).toBe(0);
  });
});
