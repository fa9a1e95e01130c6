export { dispatchLive, subscribeLive } from './bus';
export { LiveProvider } from './LiveProvider';
export { LiveReactions, useLiveReactions } from './reactions';
export { LiveStream } from './stream';
export { useLiveEvent } from './useLiveEvent';
