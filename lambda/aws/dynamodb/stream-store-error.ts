/**
 * Domain error of the DynamoDB stream and client-reply stores. It carries a string `code` and never reaches
 * a client as-is: the runtime logs it and goes on without the failed persistence (a live SSE frame is still
 * delivered, just not replayable).
 */

/** Why a stream-table operation could not be completed. */
export type StreamStoreErrorCode =
  'stream_not_found' | 'event_too_large' | 'corrupt_counter' | 'corrupt_item';

/** A stream-table item is missing or malformed. */
export class StreamStoreError extends Error {
  override readonly name = 'StreamStoreError';
  readonly code: StreamStoreErrorCode;

  constructor(code: StreamStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
