/**
 * The HTTP GET behind the remote JWKS (`remote-jwks.ts`), on `node:http`/`node:https`.
 *
 * Why not the global `fetch`: its first call loads undici's whole client (global dispatcher, agent, pool,
 * connection code), which the CPU profile of a cold start showed as the largest single cost after the
 * bundle itself (`npm run bench:lambda`). The AWS SDK's HTTP handler has already loaded `node:https`, so this
 * GET costs nothing extra to load. It also bounds the body: a key set is a few KB, and an issuer that
 * answers with megabytes must not fill the function's memory. (The bundle serves the `node:http` import below
 * without Node's ESM facade, whose lazy `WebSocket` export would load undici anyway: `lib/builtin-imports.ts`.)
 */
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** Largest JWKS body accepted (bytes); bigger answers fail like an unreachable issuer (503). */
export const MAX_JWKS_BYTES = 256 * 1024;

/** The part of a fetch `Response` jose reads: the status and the JSON body. */
export interface JwksResponse {
  status: number;
  json(): Promise<unknown>;
}

/** The request options: a signal and headers (a `Headers`-like object, pairs or a record). */
export interface JwksRequestInit {
  signal?: AbortSignal | null;
  headers?: HeaderPairs | Iterable<readonly [string, string]> | Readonly<Record<string, string>>;
}

/** Anything with `Headers#forEach` (a web `Headers`, the runtime's `HttpHeaders`). */
interface HeaderPairs {
  forEach(callback: (value: string, name: string) => void): void;
}

/** Raised for a JWKS body over {@link MAX_JWKS_BYTES}. */
export class JwksFetchError extends Error {
  override readonly name = 'JwksFetchError';
  readonly code = 'jwks_too_large';
}

/**
 * GETs `url` once: no redirects (jose asks for `redirect: "manual"`, and a redirect then fails as a
 * non-200), the signal aborts it. An aborted request rejects with the signal's reason, so jose sees the
 * `TimeoutError` of its `AbortSignal.timeout` and reports `JWKSTimeout`, as with the global `fetch`.
 */
export function fetchJwks(url: string | URL, init: JwksRequestInit = {}): Promise<JwksResponse> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const signal = init.signal ?? undefined;
  return new Promise<JwksResponse>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const fail = (error: Error) => reject(signal?.aborted ? abortReason(signal) : error);
    const request = send(
      target,
      { method: 'GET', headers: headerObject(init.headers), signal },
      (response) => {
        readBody(response).then(
          (body) => resolve({ status: response.statusCode ?? 0, json: () => parseJson(body) }),
          fail,
        );
      },
    );
    request.on('error', fail);
    request.end();
  });
}

/** The signal's reason (a `TimeoutError` DOMException for `AbortSignal.timeout`). */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('aborted');
}

/**
 * Plain request headers for `node:http`. Read structurally, never through `new Headers` (which would load
 * undici, the cost this module exists to avoid); `node:http` validates names and values itself.
 */
function headerObject(headers: JwksRequestInit['headers']): Record<string, string> {
  const plain: Record<string, string> = {};
  const add = (value: string, name: string): void => {
    const key = name.toLowerCase();
    plain[key] = Object.hasOwn(plain, key) ? `${plain[key]}, ${value}` : value;
  };
  if (headers === undefined) return plain;
  if (hasForEach(headers)) headers.forEach(add);
  else if (Symbol.iterator in headers) for (const [name, value] of headers) add(value, name);
  else for (const [name, value] of Object.entries(headers)) add(value, name);
  return plain;
}

function hasForEach(headers: NonNullable<JwksRequestInit['headers']>): headers is HeaderPairs {
  return typeof (headers as Partial<HeaderPairs>).forEach === 'function';
}

function readBody(response: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_JWKS_BYTES) {
        response.destroy(new JwksFetchError(`JWKS response larger than ${MAX_JWKS_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', reject);
  });
}

function parseJson(body: Buffer): Promise<unknown> {
  try {
    return Promise.resolve(JSON.parse(body.toString('utf8')) as unknown);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error('invalid JSON'));
  }
}
