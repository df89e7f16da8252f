/**
 * HTTP-level checks, run in a fixed fail-closed order before any JSON-RPC work (mcp-method-surface
 * "Transport + endpoint"): method → Origin → Content-Type → Accept → body size. Each check returns the
 * rejection `Response`, or undefined to continue.
 */
import { JsonRpcCode, McpError } from '../errors.js';
import type { Responder } from './http-responses.js';
import { acceptsMediaType, memoize, parseAccept, parseMediaType } from './media-type.js';
import type { MediaType } from './media-type.js';

/** Methods served on the MCP endpoint; anything else is 405 with this `Allow` value. */
export const allowedMethods = 'GET, POST, DELETE';

const cachedAccept = memoize(parseAccept);
const cachedContentType = memoize(parseMediaType);
const noRanges: MediaType[] = [];

/** Parsed `Accept` ranges of a request (empty when absent). */
export function acceptRanges(headers: Headers): MediaType[] {
  const accept = headers.get('accept');
  return accept === null ? noRanges : cachedAccept(accept);
}

function badRequest(respond: Responder, message: string): Response {
  return respond.rpcError(400, null, new McpError(JsonRpcCode.InvalidRequest, message));
}

/** 405 for methods other than GET, POST and DELETE. */
export function checkMethod(method: string, respond: Responder): Response | undefined {
  if (method === 'POST' || method === 'GET' || method === 'DELETE') return undefined;
  return respond.plainError(405, 'method not allowed', { allow: allowedMethods });
}

/**
 * 403 when an `Origin` header is present and not allow-listed (MCP transports: servers MUST validate
 * Origin to prevent DNS rebinding). Requests without Origin (non-browser clients) pass.
 */
export function checkOrigin(
  headers: Headers,
  allowed: ReadonlySet<string>,
  respond: Responder,
): Response | undefined {
  const origin = headers.get('origin');
  if (origin === null || allowed.has(origin.toLowerCase())) return undefined;
  return respond.rpcError(
    403,
    null,
    new McpError(JsonRpcCode.InvalidRequest, 'Forbidden: origin not allowed'),
  );
}

/** 400 unless `Content-Type` is `application/json` (parameters allowed; charset, if any, UTF-8). */
export function checkContentType(headers: Headers, respond: Responder): Response | undefined {
  const raw = headers.get('content-type');
  const parsed = raw === null ? undefined : cachedContentType(raw);
  const charset = parsed?.params.charset?.toLowerCase();
  if (
    parsed !== undefined &&
    parsed.type === 'application' &&
    parsed.subtype === 'json' &&
    (charset === undefined || charset === 'utf-8')
  ) {
    return undefined;
  }
  return badRequest(respond, 'Bad Request: Content-Type must be application/json');
}

/** 400 unless a POST's `Accept` admits both `application/json` and `text/event-stream`. */
export function checkPostAccept(ranges: readonly MediaType[], respond: Responder): Response | undefined {
  if (acceptsMediaType(ranges, 'application/json') && acceptsMediaType(ranges, 'text/event-stream')) {
    return undefined;
  }
  return badRequest(respond, 'Bad Request: Accept must list application/json and text/event-stream');
}

/** 400 unless a GET's `Accept` admits `text/event-stream`. */
export function checkGetAccept(ranges: readonly MediaType[], respond: Responder): Response | undefined {
  if (acceptsMediaType(ranges, 'text/event-stream')) return undefined;
  return badRequest(respond, 'Bad Request: Accept must list text/event-stream');
}

/** The outcome of reading a body under a size limit. */
export type BodyResult = { ok: true; text: string } | { ok: false; response: Response };

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the body under `maxBytes` (413 above it). A declared `Content-Length` over the limit is refused
 * without reading; a body without one (chunked) is read incrementally and reading stops at the limit, so
 * an oversized body is never buffered whole.
 */
export async function readBody(request: Request, maxBytes: number, respond: Responder): Promise<BodyResult> {
  const tooLarge = (): BodyResult => ({
    ok: false,
    response: respond.rpcError(413, null, new McpError(JsonRpcCode.InvalidRequest, 'Request body too large')),
  });
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return tooLarge();
  }
  if (request.body === null) return { ok: true, text: '' };
  if (declared !== null) {
    // HTTP frames a Content-Length body by that length, so one bounded read is safe and skips the
    // per-chunk stream machinery on the hot path; the size is re-checked in case the header lied.
    const bytes = new Uint8Array(await request.arrayBuffer());
    return bytes.byteLength > maxBytes ? tooLarge() : decodeBody(bytes);
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return tooLarge();
    }
    chunks.push(value);
  }
  return decodeBody(Buffer.concat(chunks, total));
}

function decodeBody(bytes: Uint8Array): BodyResult {
  try {
    return { ok: true, text: decoder.decode(bytes) };
  } catch {
    // Invalid UTF-8 cannot be JSON; report it exactly like unparseable JSON.
    return { ok: true, text: '\uFFFD' };
  }
}
