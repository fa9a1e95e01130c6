import { request as httpRequest } from 'node:http';

/** Thin fetch helpers over real HTTP. Each returns status, headers and the parsed JSON body. */

export interface Res<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export type Body = Record<string, unknown> | unknown[] | string | null;

async function parse<T>(r: Response): Promise<Res<T>> {
  const text = await r.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Non-JSON answers (HTML pages) are returned as text.
  }
  return { status: r.status, headers: r.headers, body: body as T };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response fields
export type Json = any;

export class Api {
  constructor(
    readonly base: string,
    private token?: string,
  ) {}

  as(token: string): Api {
    return new Api(this.base, token);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.token ? { authorization: `Bearer ${this.token}` } : {}), ...extra };
  }

  async get<T = Json>(path: string, headers: Record<string, string> = {}): Promise<Res<T>> {
    return parse<T>(await fetch(this.base + path, { headers: this.headers(headers) }));
  }

  async send<T = Json>(
    method: string,
    path: string,
    body?: Body,
    headers: Record<string, string> = {},
  ): Promise<Res<T>> {
    const init: RequestInit = { method, headers: this.headers(headers) };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    return parse<T>(await fetch(this.base + path, init));
  }

  post<T = Json>(path: string, body?: Body, headers?: Record<string, string>) {
    return this.send<T>('POST', path, body, headers);
  }

  put<T = Json>(path: string, body?: Body, headers?: Record<string, string>) {
    return this.send<T>('PUT', path, body, headers);
  }

  /** application/x-www-form-urlencoded */
  async postForm<T = Json>(path: string, fields: Record<string, string>): Promise<Res<T>> {
    return parse<T>(
      await fetch(this.base + path, {
        method: 'POST',
        headers: this.headers(),
        body: new URLSearchParams(fields),
      }),
    );
  }

  /** multipart/form-data */
  async postMultipart<T = Json>(path: string, fields: Record<string, string>): Promise<Res<T>> {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return parse<T>(await fetch(this.base + path, { method: 'POST', headers: this.headers(), body: form }));
  }
}

/** POST `body` as JSON from a chosen loopback address (127.0.0.2, 127.0.0.3, ...): to the server, another
 *  client. Answers the status, the parsed body and Retry-After. */
export function postFrom(base: string, address: string, path: string, body: unknown) {
  return new Promise<{ status: number; body: Json; retryAfter?: string }>((resolve, reject) => {
    const req = httpRequest(
      new URL(path, base),
      { method: 'POST', localAddress: address, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => {
          text += d.toString();
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(text),
            retryAfter: res.headers['retry-after'] as string | undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
