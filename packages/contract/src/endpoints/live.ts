import { endpoint } from '../endpoint.js';

/** The live event stream of docs/DESIGN.md §5. */
export const LIVE_ENDPOINTS = {
  /** An event stream, not JSON: no success body schema. */
  stream: endpoint({
    method: 'GET',
    path: '/auth/v1/sse/handle',
    access: 'user',
    tag: 'auth',
    summary: 'text/event-stream: `data: {"code": N, ...}` per event, `: ping` heartbeats.',
    errors: [],
  }),
} as const;
