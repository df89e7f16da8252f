/**
 * Builds the REST v1 (`AWS_PROXY`) event API Gateway sends the function for one HTTP request
 * ("Input format of a Lambda function for proxy integration", API Gateway developer guide).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEvent } from 'aws-lambda';

/** Request-scoped facts the event carries besides the HTTP request itself. */
export interface ProxyEventContext {
  /** The matched resource template. */
  resource: string;
  /** Stage name; it appears in `requestContext.stage` and `requestContext.path`, not in `path`. */
  stage: string;
  /** API Gateway's request id (`requestContext.requestId`, `x-amzn-RequestId`). */
  requestId: string;
  /** When the request arrived. */
  receivedAt: Date;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Media types passed as text; any other body is base64 with `isBase64Encoded`, as API Gateway does for
 * media types listed in the API's `binaryMediaTypes`.
 */
function isTextMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const essence = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return (
    essence.startsWith('text/') ||
    essence === 'application/json' ||
    essence.endsWith('+json') ||
    essence === 'application/xml' ||
    essence.endsWith('+xml') ||
    essence === 'application/x-www-form-urlencoded' ||
    essence === 'application/javascript' ||
    essence === ''
  );
}

/**
 * Header maps the way API Gateway fills them: original name case, last value in `headers`, all in the multi
 * map, plus the `X-Forwarded-*` and `X-Amzn-Trace-Id` headers API Gateway adds.
 */
function headerMaps(
  req: IncomingMessage,
  sourceIp: string,
): Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'> {
  // Null-prototype maps: a header named `constructor` or `__proto__` is data, not an Object.prototype member.
  const headers = Object.create(null) as Record<string, string>;
  const multiValueHeaders = Object.create(null) as Record<string, string[]>;
  const nameOf = new Map<string, string>();
  const forwarded = req.headers['x-forwarded-for'];
  const forwardedFor = Array.isArray(forwarded) ? forwarded.join(', ') : forwarded;
  const raw = [
    ...req.rawHeaders.filter((_, index, all) => !/^x-forwarded-for$/i.test(all[index - (index % 2)] ?? '')),
    'X-Forwarded-For',
    forwardedFor === undefined ? sourceIp : `${forwardedFor}, ${sourceIp}`,
    'X-Forwarded-Port',
    String(req.socket.localPort ?? 80),
    'X-Forwarded-Proto',
    'http',
    'X-Amzn-Trace-Id',
    `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomBytes(12).toString('hex')}`,
  ];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] ?? '';
    const value = raw[index + 1] ?? '';
    // Duplicates (any case) join the first spelling's entry, as API Gateway merges them.
    const key = nameOf.get(name.toLowerCase()) ?? name;
    nameOf.set(name.toLowerCase(), key);
    headers[key] = value;
    (multiValueHeaders[key] ??= []).push(value);
  }
  return { headers, multiValueHeaders };
}

function queryMaps(
  search: string,
): Pick<APIGatewayProxyEvent, 'queryStringParameters' | 'multiValueQueryStringParameters'> {
  const params = new URLSearchParams(search);
  if ([...params.keys()].length === 0)
    return { queryStringParameters: null, multiValueQueryStringParameters: null };
  const single = Object.create(null) as Record<string, string>;
  const multi = Object.create(null) as Record<string, string[]>;
  for (const [name, value] of params) {
    single[name] = value;
    (multi[name] ??= []).push(value);
  }
  return { queryStringParameters: single, multiValueQueryStringParameters: multi };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The body as text, or undefined when it is not valid UTF-8. Decoding leniently would turn each bad byte
 * into U+FFFD and hand the function a different, valid body; API Gateway documents a text payload only as
 * UTF-8, so the front keeps such a body's exact bytes (base64, as for a binary type) and the function
 * refuses them as it refuses any body that is not UTF-8 JSON.
 */
function utf8Text(body: Buffer): string | undefined {
  try {
    return strictUtf8.decode(body);
  } catch {
    return undefined;
  }
}

/**
 * The path and query of a request target, taken as sent. `new URL(target, base)` would read `//evil/mcp` as
 * a host plus `/mcp` and fold `/x/../mcp` into `/mcp`, so a path no resource has would reach one; API
 * Gateway matches the path it received.
 */
export function requestTarget(target: string | undefined): { pathname: string; search: string } {
  const raw = target ?? '/';
  const queryAt = raw.indexOf('?');
  const pathname = queryAt < 0 ? raw : raw.slice(0, queryAt);
  return {
    pathname: pathname.startsWith('/') ? pathname : `/${pathname}`,
    search: queryAt < 0 ? '' : raw.slice(queryAt),
  };
}

/** `requestContext.requestTime` format: `30/Nov/2026:02:01:31 +0000`. */
function requestTime(date: Date): string {
  const pad = (value: number): string => String(value).padStart(2, '0');
  return (
    `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()] ?? ''}/${date.getUTCFullYear()}:` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`
  );
}

/** Builds the proxy event for `req` whose whole body is `body` (REST APIs do not stream requests). */
export function buildProxyEvent(
  req: IncomingMessage,
  body: Buffer,
  context: ProxyEventContext,
): APIGatewayProxyEvent {
  const url = requestTarget(req.url);
  const method = req.method ?? 'GET';
  const sourceIp = req.socket.remoteAddress ?? '127.0.0.1';
  const { headers, multiValueHeaders } = headerMaps(req, sourceIp);
  const host = req.headers.host ?? '127.0.0.1';
  const text = isTextMediaType(req.headers['content-type']) ? utf8Text(body) : undefined;
  return {
    resource: context.resource,
    path: url.pathname,
    httpMethod: method,
    headers,
    multiValueHeaders,
    ...queryMaps(url.search),
    pathParameters: null,
    stageVariables: null,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: undefined,
      domainName: host,
      domainPrefix: host.split('.')[0] ?? host,
      extendedRequestId: context.requestId,
      httpMethod: method,
      path: `/${context.stage}${url.pathname}`,
      protocol: `HTTP/${req.httpVersion}`,
      requestId: context.requestId,
      requestTime: requestTime(context.receivedAt),
      requestTimeEpoch: context.receivedAt.getTime(),
      resourceId: 'local',
      resourcePath: context.resource,
      stage: context.stage,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp,
        user: null,
        userAgent: req.headers['user-agent'] ?? null,
        userArn: null,
      },
    },
    body: body.byteLength === 0 ? null : (text ?? body.toString('base64')),
    isBase64Encoded: body.byteLength !== 0 && text === undefined,
  };
}
