import { FORCED_LOGOUT_CODES, TIMINGS, type TLiveEvent, ZLiveEvent } from '@tlprt/contract';
import { SseParser } from './sseParser';

interface LiveStreamOptions {
  url: string;
  getToken: () => string | null;
  /** Every event except the forced-logout ones. */
  onEvent: (event: TLiveEvent) => void;
  /** Codes 11, 20, 100, or the stream answered 401: the session is over. */
  onSignOut: () => void;
  /** Injected in tests only; the app uses the global fetch. */
  fetchImpl?: typeof fetch;
  retryStartMs?: number;
  retryMaxMs?: number;
  /** Observability hook: called with each scheduled reconnect delay. */
  onRetryScheduled?: (delayMs: number) => void;
}

/**
 * Reads GET /auth/v1/sse/handle with fetch (EventSource cannot send the Authorization header),
 * reconnecting after 1 s, doubling up to 64 s (spec §4, §9); a good connection resets the delay.
 */
export class LiveStream {
  private readonly options: LiveStreamOptions;
  private readonly startMs: number;
  private readonly maxMs: number;
  private delayMs: number;
  private running = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private controller: AbortController | null = null;

  constructor(options: LiveStreamOptions) {
    this.options = options;
    this.startMs = options.retryStartMs ?? TIMINGS.streamRetryStartMs;
    this.maxMs = options.retryMaxMs ?? TIMINGS.streamRetryMaxMs;
    this.delayMs = this.startMs;
  }

  get nextDelayMs(): number {
    return this.delayMs;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.delayMs = this.startMs;
    void this.connect();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.controller?.abort();
    this.controller = null;
  }

  private async connect(): Promise<void> {
    this.timer = null;
    const token = this.options.getToken();
    if (!token) {
      this.stop();
      return;
    }
    const controller = new AbortController();
    this.controller = controller;
    const fetchImpl = this.options.fetchImpl ?? fetch;
    try {
      const response = await fetchImpl(this.options.url, {
        headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
        credentials: 'include',
        cache: 'no-store',
        signal: controller.signal,
      });
      if (!this.running) return;
      if (response.status === 401) {
        this.signOut();
        return;
      }
      if (response.status !== 200 || !response.body) throw new Error(`stream answered ${response.status}`);
      this.delayMs = this.startMs; // a good connection resets the back-off
      await this.read(response.body);
    } catch {
      // network failure, abort or a broken stream: reconnect below unless stopped
    }
    if (this.running && this.controller === controller) this.scheduleReconnect();
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || !this.running) break;
        for (const payload of parser.feed(decoder.decode(value, { stream: true }))) {
          this.handle(payload);
          if (!this.running) return;
        }
      }
    } finally {
      reader.releaseLock();
    }
  }

  private handle(payload: string): void {
    let json: unknown;
    try {
      json = JSON.parse(payload);
    } catch {
      return;
    }
    const parsed = ZLiveEvent.safeParse(json);
    if (!parsed.success) return;
    if (FORCED_LOGOUT_CODES.includes(parsed.data.code)) this.signOut();
    else this.options.onEvent(parsed.data);
  }

  private signOut(): void {
    this.stop();
    this.options.onSignOut();
  }

  private scheduleReconnect(): void {
    const delay = this.delayMs;
    this.delayMs = Math.min(delay * 2, this.maxMs);
    this.options.onRetryScheduled?.(delay);
    this.timer = setTimeout(() => void this.connect(), delay);
  }
}
