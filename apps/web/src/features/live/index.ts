export { dispatchLive, subscribeLive } from './bus';
export { LiveProvider } from './LiveProvider';
export { LiveReactions } from './reactions';
export { LiveStream } from './stream';
export { useLiveEvent } from './useLiveEvent';
