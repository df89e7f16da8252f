export { MAX_STREAM_EVENT_BYTES, SseStream } from './stream.js';
export type { SseStreamOptions } from './stream.js';
export { listenerBody, replayBody } from './replay.js';
export type { ListenerOptions, ReplayOptions } from './replay.js';
export {
  commentFrame,
  encodeEventFrame,
  encodeFrame,
  encodeJsonEventFrame,
  eventFrame,
  primingFrame,
  storedEventFrame,
} from './writer.js';
