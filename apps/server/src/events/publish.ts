import type { TLiveEvent } from '@tlprt/contract';
import type { AppContext } from '../context.js';
import type { EventTarget } from './bus.js';

/** An event a service decided on inside its transaction, published once the transaction committed. */
export interface Outgoing {
  target: EventTarget;
  event: TLiveEvent;
  /** Forced logout: the targeted streams end after the event. */
  close?: boolean;
}

export const toUsers = (userIds: number[], event: TLiveEvent): Outgoing => ({ target: { userIds }, event });

/** Publishes after commit, skipping events nobody is left to receive. */
export async function publishAll(ctx: AppContext, events: Outgoing[]): Promise<void> {
  for (const o of events) {
    const empty = !o.target.userIds?.length && !o.target.sessionIds?.length;
    if (empty) continue;
    await ctx.bus.publish(o.target, o.event, o.close ? { close: true } : undefined);
  }
}
