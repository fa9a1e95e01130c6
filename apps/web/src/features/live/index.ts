export { dispatchLive, subscribeLive } from './bus';
export { LiveProvider } from './LiveProvider';
export { LiveStream } from './stream';
export { useLiveEvent } from './useLiveEvent';
