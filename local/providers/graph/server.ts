/**
 * A replay of Microsoft Graph's `GET /v1.0/users` — NOT Microsoft Graph. No local emulator of Graph
 * exists, so this server replays the response shapes Microsoft documents: `$select`, `$filter`
 * (filter.ts), `$top` 1–999 with `@odata.nextLink` paging by `$skiptoken`
 * (learn.microsoft.com/graph/paging), `ConsistencyLevel: eventual` + `$count=true` for advanced queries
 * (…/aad-advanced-queries), `429`/`503` with `Retry-After` (…/throttling) and Graph's JSON error bodies
 * (…/errors). Its bearer tokens are real: issued by the local `oidc-provider` and verified with `jose`.
 */
import { randomUUID } from 'node:crypto';
import { createBearerCheck } from '../oauth/bearer.js';
import { seededPopulation } from '../population.js';
import type { PopulationOptions, ProviderPerson } from '../population.js';
import { startReplayHttpServer } from '../replay/http-server.js';
import type { ReplayAnswer, ReplayExchange } from '../replay/http-server.js';
import { defaultSwitches, nextFailure } from '../replay/switches.js';
import type { ReplaySwitches, SeenRequest } from '../replay/switches.js';
import { FilterSyntaxError, parseGraphFilter } from './filter.js';
import { DEFAULT_SELECT, graphUser, project, SELECTABLE } from './users.js';
import type { GraphUser } from './users.js';

/** Options of {@link startGraphReplay}. */
export interface GraphReplayOptions {
  /** The local authorization server whose tokens this API accepts. */
  readonly issuer: string;
  readonly jwksUrl: string;
  /** Tokens must carry this `tid` (a token of another tenant is refused, as Graph refuses it). */
  readonly tenantId: string;
  readonly people: PopulationOptions;
  /** People served beside the seeded ones (e.g. one whose name carries query syntax). */
  readonly extraPeople?: readonly ProviderPerson[];
  /** @default 'contoso.example' */
  readonly domain?: string;
  /** @default 0 */
  readonly port?: number;
}

/** A running Graph replay. */
export interface GraphReplay {
  readonly origin: string;
  /** `<origin>/v1.0`, what an Entra source's `graph_url` names. */
  readonly graphUrl: string;
  /** The resource indicator tokens must be issued for (`aud`). */
  readonly resource: string;
  /** The people behind {@link users}, in the same order. */
  readonly people: readonly ProviderPerson[];
  readonly users: readonly GraphUser[];
  readonly switches: ReplaySwitches;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

const error = (
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): ReplayAnswer => ({
  status,
  headers: { 'request-id': randomUUID(), ...headers },
  body: {
    error: { code, message, innerError: { date: new Date().toISOString(), 'request-id': randomUUID() } },
  },
});

/** Starts the replay on 127.0.0.1. */
export async function startGraphReplay(options: GraphReplayOptions): Promise<GraphReplay> {
  const switches = defaultSwitches();
  const people = [...seededPopulation(options.people), ...(options.extraPeople ?? [])];
  const users = people.map((p) => graphUser(p, options.domain ?? 'contoso.example'));
  const http = await startReplayHttpServer((exchange) => handle(exchange), options.port ?? 0);
  const origin = http.origin;
  const check = createBearerCheck({
    issuer: options.issuer,
    jwksUrl: options.jwksUrl,
    audience: `${origin}/`,
  });

  async function handle(exchange: ReplayExchange): Promise<ReplayAnswer> {
    const { url, request } = exchange;
    if (request.method !== 'GET' || url.pathname !== '/v1.0/users')
      return error(404, 'Request_ResourceNotFound', 'Resource not found for the segment.');
    const auth = await check(request.headers.authorization, 'User.Read.All');
    if (!auth.ok)
      return auth.status === 401
        ? error(401, 'InvalidAuthenticationToken', 'Access token validation failure. Invalid audience.', {
            'www-authenticate': 'Bearer realm="", error="invalid_token"',
          })
        : error(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    if (auth.claims['tid'] !== options.tenantId)
      return error(401, 'InvalidAuthenticationToken', 'Access token validation failure. Invalid tenant.');
    const failure = nextFailure(switches);
    if (failure?.kind === 'throttle')
      return error(429, 'TooManyRequests', 'Too many requests.', {
        'retry-after': String(failure.retryAfterS),
      });
    if (failure?.kind === 'unavailable')
      return error(503, 'serviceNotAvailable', 'Service is temporarily unavailable.', {
        ...(failure.retryAfterS === undefined ? {} : { 'retry-after': String(failure.retryAfterS) }),
      });
    return list(exchange);
  }

  async function list({ url, request, sleep }: ReplayExchange): Promise<ReplayAnswer> {
    const params = url.searchParams;
    const top = Number(params.get('$top') ?? '100');
    if (!Number.isInteger(top) || top < 1 || top > 999)
      return error(400, 'Request_BadRequest', 'Invalid page size specified.');
    const select = params.get('$select')?.split(',') ?? [...DEFAULT_SELECT];
    const unknown = select.find((name) => !SELECTABLE.has(name));
    if (unknown !== undefined)
      return error(
        400,
        'Request_BadRequest',
        "Could not find a property on the type 'microsoft.graph.user'.",
      );
    const eventual = String(request.headers['consistencylevel'] ?? '').toLowerCase() === 'eventual';
    const count = params.get('$count') === 'true';
    if (count && !eventual)
      return error(400, 'Request_BadRequest', '$count is not currently supported without ConsistencyLevel.');
    let matches: (user: GraphUser) => boolean = () => true;
    const filter = params.get('$filter');
    if (filter !== null) {
      try {
        const parsed = parseGraphFilter(filter);
        if (parsed.advanced && !(eventual && count))
          return error(400, 'Request_UnsupportedQuery', 'Unsupported Query.');
        matches = parsed.matches;
      } catch (e) {
        if (e instanceof FilterSyntaxError)
          return error(400, 'Request_UnsupportedQuery', 'Unsupported Query.');
        throw e;
      }
    }
    const skip = params.get('$skiptoken');
    const offset = skip === null ? 0 : decodeSkipToken(skip);
    if (offset === undefined) return error(400, 'Request_BadRequest', 'Invalid paging token.');
    const wait = switches.delayMs + (offset > 0 ? switches.laterPageDelayMs : 0);
    if (!(await sleep(wait, offset > 0 ? switches.laterPageGate : undefined))) return { status: 499 };
    const found = users.filter(matches);
    const page = found.slice(offset, offset + top).map((u) => project(u, select));
    const next = new URL(url);
    next.searchParams.set('$skiptoken', encodeSkipToken(offset + top));
    return {
      status: 200,
      headers: { 'request-id': randomUUID(), 'odata-version': '4.0' },
      body: {
        '@odata.context': `${origin}/v1.0/$metadata#users${params.has('$select') ? `(${select.join(',')})` : ''}`,
        ...(count ? { '@odata.count': found.length } : {}),
        ...(offset + top < found.length ? { '@odata.nextLink': next.href } : {}),
        value: page,
      },
    };
  }

  return {
    origin,
    graphUrl: `${origin}/v1.0`,
    resource: `${origin}/`,
    people,
    users,
    switches,
    seen: http.seen,
    close: () => http.close(),
  };
}

// Graph's skip tokens are opaque; this one is too (base64url of the next offset, with a marker).
function encodeSkipToken(offset: number): string {
  return Buffer.from(`RFNwdAoAAQAAAA:${offset}`).toString('base64url');
}

function decodeSkipToken(token: string): number | undefined {
  const match = /^RFNwdAoAAQAAAA:(\d{1,9})$/.exec(Buffer.from(token, 'base64url').toString());
  return match === null ? undefined : Number(match[1]);
}
