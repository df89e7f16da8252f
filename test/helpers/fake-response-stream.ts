/**
 * A fake of the Lambda response stream that produces the real byte format: `HttpResponseStream.from` makes
 * the first `write()` emit the JSON prelude and 8 NUL bytes first, exactly as aws-lambda-ric 4.0.2
 * (`dist/stream/http-response-stream.js`, `createResponseStream`) does. Test-only: production code never
 * fakes `awslambda`.
 */
import { Writable } from 'node:stream';

/** The content type `HttpResponseStream.from` sets on the stream. */
export const PRELUDE_CONTENT_TYPE = 'application/vnd.awslambda.http-integration-response';

/** Options for {@link FakeResponseStream}. */
export interface FakeResponseStreamOptions {
  /** Bytes buffered before `write()` returns false. @default 16384 */
  highWaterMark?: number;
  /** Start with writes held (their callbacks wait for `release()`), to exercise backpressure. */
  held?: boolean;
}

/** Records every write as raw bytes; can hold writes to simulate a slow client. */
export class FakeResponseStream extends Writable {
  readonly chunks: Buffer[] = [];
  /** Number of `write()` calls made by the code under test (not counting the prelude's own writes). */
  writeCalls = 0;
  contentType: string | undefined;
  _onBeforeFirstWrite: ((write: (chunk: string | Uint8Array) => void) => void) | undefined;
  #wrote = false;
  #held: boolean;
  #pending: (() => void)[] = [];

  constructor(options: FakeResponseStreamOptions = {}) {
    super({ highWaterMark: options.highWaterMark ?? 16_384 });
    this.#held = options.held ?? false;
    const write = this.write.bind(this) as (chunk: unknown, ...rest: unknown[]) => boolean;
    // Like the runtime client: the hook runs on the first write(), even an empty one.
    this.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (!this.#wrote && this._onBeforeFirstWrite !== undefined) this._onBeforeFirstWrite((c) => write(c));
      this.#wrote = true;
      this.writeCalls += 1;
      return write(chunk, ...rest);
    }) as Writable['write'];
  }

  setContentType(contentType: string): void {
    if (this.#wrote) throw new Error('Cannot set content-type, too late.');
    this.contentType = contentType;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(Buffer.from(chunk));
    if (this.#held) this.#pending.push(() => callback());
    else callback();
  }

  /** Completes held writes and stops holding. */
  release(): void {
    this.#held = false;
    for (const done of this.#pending.splice(0)) done();
  }

  /** Everything written so far, prelude included. */
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  /** The client goes away: the stream closes before the response ended. */
  disconnect(): void {
    this.destroy();
  }
}

/** The decoded parts of a streamed HTTP integration response. */
export interface StreamedResponse {
  prelude: {
    statusCode: number;
    headers?: Record<string, string>;
    cookies?: string[];
    [key: string]: unknown;
  };
  body: string;
  /** The raw bytes between prelude and body: must be 8 NUL bytes. */
  delimiter: Buffer;
}

/**
 * Splits raw bytes the way API Gateway does: JSON prelude, then 8 NUL bytes, then the body. Throws when the
 * delimiter is missing (API Gateway would answer 502).
 */
export function parseStreamedResponse(bytes: Buffer): StreamedResponse {
  const delimiter = Buffer.alloc(8);
  const at = bytes.indexOf(delimiter);
  if (at < 0) throw new Error('no prelude delimiter (8 NUL bytes) in the stream');
  const prelude = JSON.parse(bytes.subarray(0, at).toString('utf8')) as StreamedResponse['prelude'];
  return { prelude, delimiter: bytes.subarray(at, at + 8), body: bytes.subarray(at + 8).toString('utf8') };
}
