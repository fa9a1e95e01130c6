import { type AttachOptions, attach, type Counters, type Handle } from './attach.js';

export type { AttachOptions, Counters, Handle };
/** The plugin's build (the bundle's version, shown by the demo page). */
export const version = '1.0.0';
export { attach };
