/**
 * A replay of Microsoft Graph's `GET /v1.0/users` and `GET /v1.0/users/delta` — NOT Microsoft Graph. No local server of Graph exists,
 * so this one answers with the shapes Microsoft publishes in its documentation's source (every payload and
 * its public source: payloads.ts; the user objects: users.ts): `$select`, `$filter` (filter.ts), `$top`
 * 1–999 with `@odata.nextLink` paging by `$skiptoken` (empty pages included when asked), the advanced
 * query rules (`ConsistencyLevel: eventual` + `$count=true`, checked on every page, since Graph does not
 * carry the header into its next links; `$count=true` alone is silently ignored), `429` with
 * `Retry-After` (fractional or absent) and the identity throttle headers, `503`/`504`, and Graph's error
 * bodies. `/users/delta` (delta.ts) answers the changes tests make through {@link GraphReplay.directory}
 * (directory.ts) since a delta link was issued. Its bearer tokens are real: issued by the local `oidc-provider` and verified with `jose`.
 */
import { createBearerCheck } from '../oauth/bearer.js';
import { seededPopulation } from '../population.js';
import type { PopulationOptions, ProviderPerson } from '../population.js';
import { startReplayHttpServer } from '../replay/http-server.js';
import type { ReplayAnswer, ReplayExchange } from '../replay/http-server.js';
import { defaultSwitches, nextFailure } from '../replay/switches.js';
import type { ReplaySwitches, SeenRequest } from '../replay/switches.js';
import { answerDelta } from './delta.js';
import { GraphDirectory } from './directory.js';
import { FilterSyntaxError, parseGraphFilter } from './filter.js';
import {
  gatewayTimeout,
  graphError,
  serviceUnavailable,
  throttled,
  unreadablePage,
  unsupportedQuery,
  userPage,
} from './payloads.js';
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
  /** Give some users the documented shapes of users.ts (null names or mail, guests, extensions). @default false */
  readonly vendorShapes?: boolean;
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
  /** The seeded people (the first users, in the same order). */
  readonly people: readonly ProviderPerson[];
  /** The users that exist now. */
  readonly users: readonly GraphUser[];
  /** Adds, changes and deletes users between reads; `/users/delta` reports each change. */
  readonly directory: GraphDirectory;
  /** Entries per `/users/delta` page (Graph picks its own). @default 100 */
  deltaPageSize: number;
  readonly switches: ReplaySwitches;
  /**
   * Set `advancedQueries` false to answer as an Azure AD B2C tenant, where "the `$count` and `$search`
   * query parameters are currently not available" (user-list.md) nor are advanced queries
   * (aad-advanced-queries.md): such a request gets `400 Request_UnsupportedQuery` (the status and code are
   * this replay's assumption; the documents name none for B2C).
   */
  readonly tenant: { advancedQueries: boolean };
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

/** Starts the replay on 127.0.0.1. */
export async function startGraphReplay(options: GraphReplayOptions): Promise<GraphReplay> {
  const switches = defaultSwitches();
  const tenant = { advancedQueries: true };
  const people = [...seededPopulation(options.people), ...(options.extraPeople ?? [])];
  const directory = new GraphDirectory(
    people.map((p) => graphUser(p, options.domain ?? 'contoso.example', options.vendorShapes ?? false)),
  );
  const http = await startReplayHttpServer((exchange) => handle(exchange), options.port ?? 0);
  const origin = http.origin;
  const check = createBearerCheck({
    issuer: options.issuer,
    jwksUrl: options.jwksUrl,
    audience: `${origin}/`,
  });

  async function handle(exchange: ReplayExchange): Promise<ReplayAnswer> {
    const { url, request } = exchange;
    const isDelta = url.pathname === '/v1.0/users/delta';
    if (request.method !== 'GET' || (url.pathname !== '/v1.0/users' && !isDelta))
      return graphError(404, 'Request_ResourceNotFound', 'Resource not found for the segment.');
    const auth = await check(request.headers.authorization, 'User.Read.All');
    if (!auth.ok)
      return auth.status === 401
        ? graphError(
            401,
            'InvalidAuthenticationToken',
            'Access token validation failure. Invalid audience.',
            {
              'www-authenticate': 'Bearer realm="", error="invalid_token"',
            },
          )
        : graphError(
            403,
            'Authorization_RequestDenied',
            'Insufficient privileges to complete the operation.',
          );
    if (auth.claims['tid'] !== options.tenantId)
      return graphError(
        401,
        'InvalidAuthenticationToken',
        'Access token validation failure. Invalid tenant.',
      );
    const failure = nextFailure(switches);
    if (failure?.kind === 'throttle')
      return throttled(failure.retryAfterS, options.tenantId, appIdOf(auth.claims));
    if (failure?.kind === 'unavailable') return serviceUnavailable(failure.retryAfterS);
    if (failure?.kind === 'gateway_timeout') return gatewayTimeout();
    if (failure?.kind === 'unreadable') return unreadablePage(`${origin}/v1.0/$metadata#users`);
    return isDelta ? answerDelta(url, directory, origin, replay.deltaPageSize) : list(exchange);
  }

  async function list({ url, request, sleep }: ReplayExchange): Promise<ReplayAnswer> {
    const params = url.searchParams;
    const top = Number(params.get('$top') ?? '100');
    if (!Number.isInteger(top) || top < 1 || top > 999)
      return graphError(400, 'Request_BadRequest', 'Invalid page size specified.');
    const select = params.get('$select')?.split(',') ?? [...DEFAULT_SELECT];
    if (select.some((name) => !SELECTABLE.has(name)))
      return graphError(
        400,
        'Request_BadRequest',
        "Could not find a property on the type 'microsoft.graph.user'.",
      );
    const eventual = String(request.headers['consistencylevel'] ?? '').toLowerCase() === 'eventual';
    // `$count=true` without the header is ignored, not refused (aad-advanced-queries: get_users_silent_fail).
    const advancedParams = eventual && params.get('$count') === 'true';
    if (!tenant.advancedQueries && (params.has('$count') || params.has('$search')))
      return unsupportedQuery('operator');
    if (params.has('$search') && !eventual) return unsupportedQuery('search');
    let matches: (user: GraphUser) => boolean = () => true;
    const filter = params.get('$filter');
    if (filter !== null) {
      try {
        const parsed = parseGraphFilter(filter);
        if (parsed.advanced && !advancedParams) return unsupportedQuery('operator');
        matches = parsed.matches;
      } catch (e) {
        if (e instanceof FilterSyntaxError) return unsupportedQuery('filter');
        throw e;
      }
    }
    const token = params.get('$skiptoken');
    const at = token === null ? { offset: 0, empty: false } : decodeSkipToken(token);
    if (at === undefined) return graphError(400, 'Request_BadRequest', 'Invalid paging token.');
    const { offset } = at;
    const wait = switches.delayMs + (offset > 0 ? switches.laterPageDelayMs : 0);
    if (!(await sleep(wait, offset > 0 ? switches.laterPageGate : undefined))) return { status: 499 };
    const found = directory.users.filter(matches);
    const linkTo = (next: { offset: number; empty: boolean }) => {
      const link = new URL(url);
      link.searchParams.set('$skiptoken', encodeSkipToken(next));
      return link.href;
    };
    const context = `${origin}/v1.0/$metadata#users${params.has('$select') ? `(${select.join(',')})` : ''}`;
    // "A page of results may contain zero or more results" (paging.md): an empty page links on to the rest.
    if (at.empty) return userPage(context, [], { nextLink: linkTo({ offset, empty: false }) });
    const page = found.slice(offset, offset + top).map((u) => project(u, select));
    const more = offset + top < found.length;
    return userPage(context, page, {
      // `@odata.count` is on the first page only (paging.md).
      ...(advancedParams && offset === 0 && token === null ? { count: found.length } : {}),
      ...(more ? { nextLink: linkTo({ offset: offset + top, empty: switches.emptyPages }) } : {}),
    });
  }

  const replay: GraphReplay = {
    origin,
    graphUrl: `${origin}/v1.0`,
    resource: `${origin}/`,
    people,
    get users() {
      return directory.users;
    },
    directory,
    deltaPageSize: 100,
    switches,
    tenant,
    seen: http.seen,
    close: () => http.close(),
  };
  return replay;
}

/** The app a token was issued to (`azp`/`appid`), for the throttle scope header. */
function appIdOf(claims: Readonly<Record<string, unknown>>): string {
  const app = claims['azp'] ?? claims['appid'] ?? claims['client_id'];
  return typeof app === 'string' ? app : 'unknown-app';
}

// Graph's skip tokens are opaque; this one is too (base64url of the next offset, with a marker, and `e`
// for the empty page served before it when the switch asks for one).
function encodeSkipToken(at: { offset: number; empty: boolean }): string {
  return Buffer.from(`RFNwdAoAAQAAAA:${at.offset}${at.empty ? 'e' : ''}`).toString('base64url');
}

function decodeSkipToken(token: string): { offset: number; empty: boolean } | undefined {
  const match = /^RFNwdAoAAQAAAA:(\d{1,9})(e?)$/.exec(Buffer.from(token, 'base64url').toString());
  return match === null ? undefined : { offset: Number(match[1]), empty: match[2] === 'e' };
}
