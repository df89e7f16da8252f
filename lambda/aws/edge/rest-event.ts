/**
 * API Gateway REST v1 proxy event -> web `Request` (DESIGN §3 step 2). The adapter adds no protocol behaviour:
 * it only reshapes what API Gateway sent, strictly; what `Headers` or `new Request` refuses becomes a
 * `RestEventError`.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { RestEventError } from './errors.js';
import { headerMap, queryMap } from './rest-headers.js';
import { matchResource, normaliseTrailingSlash, stripStage } from './rest-path.js';

/** The pieces of a proxy event, normalised, before they become a `Request`. */
export interface RestEventParts {
  method: string;
  /** Path without the stage prefix; trailing slash canonicalised on MCP routes only. */
  path: string;
  /** The resource template (`/mcp/{actor}`), when API Gateway sent one. */
  resource?: string;
  /** Lower-cased header name -> every value (multiValueHeaders win). */
  headers: Map<string, string[]>;
  /** Query name -> every value (multiValueQueryStringParameters win). */
  query: Map<string, string[]>;
  /** Decoded body bytes; undefined when the event has none. */
  body?: Uint8Array<ArrayBuffer>;
  /** Whether API Gateway delivered the body base64-encoded. */
  isBase64: boolean;
  /** Path parameters (null-prototype record): API Gateway's, else matched from the resource template. */
  pathParameters: Record<string, string>;
  /** Client IP, only from `requestContext.identity.sourceIp` (never from X-Forwarded-For / Forwarded). */
  sourceIp?: string;
  /** API Gateway's request id. */
  apiRequestId?: string;
}

/** The event fields the adapter reads; everything else may be absent (tests, the local front). */
export type RestProxyEvent = Partial<APIGatewayProxyEvent> & Pick<APIGatewayProxyEvent, 'httpMethod'>;

/**
 * Decodes standard padded base64 strictly: `Buffer.from(…, 'base64')` silently skips bad characters,
 * accepts the URL-safe alphabet and truncated groups, which would hand the runtime different bytes than the
 * client sent. Re-encoding the decoded bytes and comparing with the input refuses all of those (anything
 * skipped or reinterpreted changes the text) and non-zero padding bits (`AAF=`), so one body has one
 * encoding. Both steps are linear: no regular expression, whose backtracking stack a multi-megabyte body
 * would overflow.
 */
export function decodeBase64Strict(text: string): Uint8Array<ArrayBuffer> {
  const bytes = text.length % 4 === 0 ? Buffer.from(text, 'base64') : undefined;
  if (bytes === undefined || bytes.toString('base64') !== text)
    throw new RestEventError('invalid_base64', 'invalid base64');
  return new Uint8Array(bytes);
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function ownParams(
  params: APIGatewayProxyEvent['pathParameters'] | undefined,
): Record<string, string> | undefined {
  if (params === null || params === undefined || typeof params !== 'object') return undefined;
  const out = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(params)) if (typeof value === 'string') out[name] = value;
  return out;
}

/** Normalises a proxy event. Throws `RestEventError('invalid_base64')` for a body that is not base64. */
export function parseRestEvent(event: RestProxyEvent): RestEventParts {
  if (typeof event.httpMethod !== 'string' || event.httpMethod === '')
    throw new RestEventError('invalid_event', 'missing httpMethod');
  const context = event.requestContext;
  const resource = stringOrUndefined(event.resource) ?? stringOrUndefined(context?.resourcePath);
  const rawPath = stringOrUndefined(event.path) ?? stringOrUndefined(context?.path) ?? '/';
  const path = normaliseTrailingSlash(stripStage(rawPath, context?.stage, resource), resource);
  const isBase64 = event.isBase64Encoded === true;
  const rawBody = typeof event.body === 'string' ? event.body : '';
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (rawBody !== '') body = isBase64 ? decodeBase64Strict(rawBody) : new TextEncoder().encode(rawBody);
  const matched = resource === undefined ? undefined : matchResource(resource, path);
  return {
    method: event.httpMethod.toUpperCase(),
    path,
    ...(resource === undefined ? {} : { resource }),
    headers: headerMap({ headers: event.headers ?? {}, multiValueHeaders: event.multiValueHeaders ?? {} }),
    query: queryMap({
      queryStringParameters: event.queryStringParameters ?? null,
      multiValueQueryStringParameters: event.multiValueQueryStringParameters ?? null,
    }),
    ...(body === undefined ? {} : { body }),
    isBase64,
    pathParameters:
      ownParams(event.pathParameters) ?? matched ?? (Object.create(null) as Record<string, string>),
    ...optional('sourceIp', stringOrUndefined(context?.identity?.sourceIp)),
    ...optional('apiRequestId', stringOrUndefined(context?.requestId)),
  };
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

/** Options for {@link toRequest}. */
export interface ToRequestOptions {
  /**
   * Origin of the `Request` URL. The handler passes `MCP_ENDPOINT`'s origin so nothing depends on the
   * client-controlled `Host`. @default `https://<Host header>`, else `http://localhost`
   */
  origin?: string;
  /** Becomes `request.signal` (client disconnect, invocation teardown). */
  signal?: AbortSignal;
}

function originFor(parts: RestEventParts, preferred: string | undefined): URL {
  const host = parts.headers.get('host')?.[0];
  for (const candidate of [preferred, host === undefined ? undefined : `https://${host}`]) {
    if (candidate === undefined) continue;
    try {
      return new URL(new URL(candidate).origin);
    } catch {
      // Not a usable origin (e.g. a malformed Host header); try the next candidate.
    }
  }
  return new URL('http://localhost');
}

/**
 * Builds the request. Throws `RestEventError` for what `fetch` rejects: `invalid_header` for a header name
 * that is not a token or a value with CR/LF/NUL or a code unit above 0xFF; `invalid_event` for a method that
 * is not a token or is CONNECT/TRACE/TRACK.
 */
export function toRequest(parts: RestEventParts, options: ToRequestOptions = {}): Request {
  const url = originFor(parts, options.origin);
  // Assigning pathname (not `new URL(path, base)`) keeps a path like `//evil.example` from becoming a host.
  url.pathname = parts.path;
  for (const [name, values] of parts.query) for (const value of values) url.searchParams.append(name, value);
  const headers = new Headers();
  try {
    for (const [name, values] of parts.headers) for (const value of values) headers.append(name, value);
  } catch (cause) {
    throw new RestEventError('invalid_header', 'invalid header', { cause });
  }
  const hasBody = parts.body !== undefined && parts.method !== 'GET' && parts.method !== 'HEAD';
  try {
    return new Request(url.href, {
      method: parts.method,
      headers,
      ...(hasBody ? { body: parts.body } : {}),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (cause) {
    throw new RestEventError('invalid_event', 'invalid request', { cause });
  }
}

/** Proxy event -> request plus the normalised parts (source IP, path parameters, raw header lists). */
export function restEventToRequest(
  event: RestProxyEvent,
  options: ToRequestOptions = {},
): { request: Request; parts: RestEventParts } {
  const parts = parseRestEvent(event);
  return { request: toRequest(parts, options), parts };
}
