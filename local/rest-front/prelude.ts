/**
 * Reads the streaming integration prelude: JSON metadata (`statusCode`, `headers`, `multiValueHeaders`,
 * `cookies`), then 8 NUL bytes, then the payload. API Gateway starts streaming to the client only once valid
 * metadata and the delimiter have arrived (response-transfer-mode-lambda); otherwise the client gets 502.
 */
import type { Readable } from 'node:stream';

/** The delimiter `HttpResponseStream.from` writes after the JSON (RIC `http-response-stream.ts`). */
const DELIMITER = Buffer.alloc(8);

/** Metadata larger than this without a delimiter is treated as "no valid prelude". */
export const MAX_PRELUDE_BYTES = 64 * 1024;

/** The parsed prelude: what API Gateway applies to the client response before streaming the payload. */
export interface Prelude {
  statusCode: number;
  /** Header name → values, in the order they were given (`headers`, then `multiValueHeaders`, then cookies). */
  headers: Array<[string, string]>;
}

/** Raised when the function's output does not start with a valid prelude. */
export class PreludeError extends Error {
  override readonly name = 'PreludeError';
  readonly code: 'no_delimiter' | 'invalid_metadata' | 'stream_failed';
  constructor(code: PreludeError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Validates the metadata object. Non-string scalar header values are stringified; anything else is invalid. */
export function parsePreludeMetadata(text: string): Prelude {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PreludeError('invalid_metadata', 'prelude is not JSON', { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new PreludeError('invalid_metadata', 'prelude is not a JSON object');
  }
  const record = value as Record<string, unknown>;
  const status = record['statusCode'] ?? 200;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
    throw new PreludeError('invalid_metadata', 'prelude statusCode is not an HTTP status');
  }
  const headers: Array<[string, string]> = [];
  for (const [name, raw] of entries(record['headers'])) headers.push([name, scalar(raw)]);
  for (const [name, raw] of entries(record['multiValueHeaders'])) {
    if (!Array.isArray(raw))
      throw new PreludeError('invalid_metadata', `multiValueHeaders.${name} is not a list`);
    for (const item of raw as unknown[]) headers.push([name, scalar(item)]);
  }
  const cookies = record['cookies'] ?? [];
  if (!Array.isArray(cookies)) throw new PreludeError('invalid_metadata', 'cookies is not a list');
  for (const cookie of cookies as unknown[]) headers.push(['Set-Cookie', scalar(cookie)]);
  return { statusCode: status, headers };
}

function entries(value: unknown): Array<[string, unknown]> {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new PreludeError('invalid_metadata', 'prelude headers are not an object');
  }
  return Object.entries(value);
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new PreludeError('invalid_metadata', 'prelude header value is not a string');
}

/**
 * Consumes the function's output up to and including the delimiter and returns the metadata. Bytes after the
 * delimiter are put back (`unshift`) so the caller streams `body` on from exactly the payload's first byte.
 * Rejects with {@link PreludeError} if the stream ends, fails or grows past the limit first.
 */
export function readPrelude(body: Readable, maxBytes = MAX_PRELUDE_BYTES): Promise<Prelude> {
  return new Promise<Prelude>((resolve, reject) => {
    let buffered: Buffer = Buffer.alloc(0);
    const cleanup = (): void => {
      body.pause();
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
    };
    const fail = (error: PreludeError): void => {
      cleanup();
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      // Only the new bytes (plus the 7 before them, in case the delimiter straddles chunks) are scanned.
      const from = Math.max(0, buffered.byteLength - (DELIMITER.byteLength - 1));
      buffered = buffered.byteLength === 0 ? chunk : Buffer.concat([buffered, chunk]);
      const at = buffered.indexOf(DELIMITER, from);
      if (at < 0) {
        if (buffered.byteLength > maxBytes)
          fail(new PreludeError('no_delimiter', 'prelude exceeds the size limit'));
        return;
      }
      cleanup();
      const rest = buffered.subarray(at + DELIMITER.byteLength);
      try {
        const prelude = parsePreludeMetadata(buffered.subarray(0, at).toString('utf8'));
        if (rest.byteLength > 0) body.unshift(rest);
        resolve(prelude);
      } catch (error) {
        reject(error instanceof PreludeError ? error : new PreludeError('invalid_metadata', 'bad prelude'));
      }
    };
    const onEnd = (): void =>
      fail(new PreludeError('no_delimiter', 'response ended before the prelude delimiter'));
    const onError = (error: Error): void =>
      fail(new PreludeError('stream_failed', 'function failed before the prelude', { cause: error }));
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onError);
  });
}
