/**
 * A replay of Okta's Users API `GET /api/v1/users` — NOT Okta. No local server of Okta exists, so this one
 * answers with the shapes Okta publishes: the management API's OpenAPI (`okta/okta-management-openapi-spec`,
 * `dist/2026.06.3/management-minimal.yaml`, `/api/v1/users` `get`) for the parameters and their rules, the
 * user objects (users.ts) and the `ErrorTooManyRequests` example (`E0000047`); the official SDKs' tests for
 * the rest: `okta/okta-powershell-cli` `tests/Internal/OktaApiClient.Tests.ps1` ("429 Responses": `Date`
 * and `x-rate-limit-reset` in epoch seconds), `okta/okta-auth-js` `test/support/xhr/error-throttle.js` (the
 * `E0000047` body), `okta/okta-sdk-nodejs` `test/unit/collection.js` ("should follow pagination", "should
 * handle null, then continue": `Link: <…>; rel="next"`, and an empty page that still links on).
 *
 * What it does as the spec says:
 * - a plain list (no `search`/`filter`) and `q` omit `DEPROVISIONED` users; `search` and `filter` include them;
 * - `q` is a prefix match on first name, last name or email, `limit` defaults to 10, and it does not page;
 * - `search` and `filter` as search.ts; `limit` up to 200 with an opaque `after` cursor;
 * - `Link` header lines `rel="self"` and `rel="next"` (one line each); `X-Rate-Limit-Limit/-Remaining/-Reset`
 *   and `Date` on every answer; `429` with `E0000047`; Okta's error objects (`errorCode`, `errorSummary`,
 *   `errorLink`, `errorId`, `errorCauses`).
 *
 * Its bearer tokens are real: issued by the local `oidc-provider` for the org URL and verified with `jose`.
 *
 * Its population changes only through {@link OktaReplay.upsert} and {@link OktaReplay.remove}, which stand in
 * for what an administrator does through Okta's admin API or console (create, update, deactivate, delete);
 * the replay serves no write endpoint. As Okta does, a change stamps the user's `lastUpdated`.
 */
import { randomUUID } from 'node:crypto';
import { createBearerCheck } from '../oauth/bearer.js';
import { seededPopulation } from '../population.js';
import type { PopulationOptions, ProviderPerson } from '../population.js';
import { startReplayHttpServer } from '../replay/http-server.js';
import type { ReplayAnswer, ReplayExchange } from '../replay/http-server.js';
import { defaultSwitches, nextFailure } from '../replay/switches.js';
import type { ReplaySwitches, SeenRequest } from '../replay/switches.js';
import { parseOktaSearch, SearchSyntaxError } from './search.js';
import { oktaUser, searchAttributes } from './users.js';
import type { OktaUser } from './users.js';

/** Options of {@link startOktaReplay}. */
export interface OktaReplayOptions {
  readonly issuer: string;
  readonly jwksUrl: string;
  readonly people: PopulationOptions;
  /** People served beside the seeded ones (e.g. one whose name carries query syntax). */
  readonly extraPeople?: readonly ProviderPerson[];
  /** Requests per minute announced in `X-Rate-Limit-Limit`. @default 600 */
  readonly rateLimitPerMinute?: number;
  /** @default 0 */
  readonly port?: number;
}

/** A running Okta replay. */
export interface OktaReplay {
  /** The org URL (`http://127.0.0.1:<port>`), also the `aud` its tokens must carry. */
  readonly origin: string;
  /** The seeded people behind {@link users} as it started, in the same order. */
  readonly people: readonly ProviderPerson[];
  /** The users it serves now, in listing order (changed by {@link upsert} and {@link remove}). */
  readonly users: readonly OktaUser[];
  /**
   * Creates a user, or replaces the one with the same `id` in place (an update or a lifecycle change such as
   * `DEPROVISIONED`); stamps `lastUpdated` with the current time, as Okta does on every change.
   */
  upsert(user: OktaUser): OktaUser;
  /** Deletes a user outright (Okta's delete of a deprovisioned user): it is no longer listed by any query. */
  remove(id: string): void;
  readonly switches: ReplaySwitches;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

/** The org URL that records claim when `switches.foreignIdentity` is on. */
export const FOREIGN_ORG = 'https://other-org.okta.example';

/** Starts the replay on 127.0.0.1. */
export async function startOktaReplay(options: OktaReplayOptions): Promise<OktaReplay> {
  const switches = defaultSwitches();
  const people = [...seededPopulation(options.people), ...(options.extraPeople ?? [])];
  const limit = options.rateLimitPerMinute ?? 600;
  let window = { reset: 0, used: 0 };
  const http = await startReplayHttpServer((exchange) => handle(exchange), options.port ?? 0);
  const origin = http.origin;
  const users: OktaUser[] = people.map((p) => oktaUser(p, origin));
  // The same user as another org would serve it (only its `_links` name the org).
  const foreignOf = (u: OktaUser): OktaUser => ({
    ...u,
    _links: { self: { href: `${FOREIGN_ORG}/api/v1/users/${u.id}` } },
  });
  const check = createBearerCheck({ issuer: options.issuer, jwksUrl: options.jwksUrl, audience: origin });

  // A throttled answer says none are left (`exhausted`), as the rate-limit headers of a real 429 do.
  const rateHeaders = (resetS?: number, exhausted = false): Record<string, string> => {
    const now = Date.now();
    if (now >= window.reset * 1000) window = { reset: Math.ceil(now / 1000) + 60, used: 0 };
    window.used += 1;
    return {
      date: new Date(now).toUTCString(),
      'x-rate-limit-limit': String(limit),
      'x-rate-limit-remaining': exhausted ? '0' : String(Math.max(0, limit - window.used)),
      'x-rate-limit-reset': String(resetS ?? window.reset),
    };
  };
  const error = (status: number, code: string, summary: string, headers = rateHeaders()): ReplayAnswer => ({
    status,
    headers,
    body: {
      errorCode: code,
      errorSummary: summary,
      errorLink: code,
      errorId: `oae${randomUUID()}`,
      errorCauses: [],
    },
  });

  async function handle(exchange: ReplayExchange): Promise<ReplayAnswer> {
    const { url, request } = exchange;
    if (request.method !== 'GET' || url.pathname !== '/api/v1/users')
      return error(404, 'E0000022', 'The endpoint does not support the provided HTTP method');
    const auth = await check(request.headers.authorization, 'okta.users.read');
    if (!auth.ok)
      return auth.status === 401
        ? error(401, 'E0000011', 'Invalid token provided', {
            ...rateHeaders(),
            'www-authenticate': 'Bearer error="invalid_token"',
          })
        : error(403, 'E0000006', 'You do not have permission to perform the requested action');
    const failure = nextFailure(switches);
    if (failure?.kind === 'throttle')
      return error(
        429,
        'E0000047',
        'API call exceeded rate limit due to too many requests.',
        rateHeaders(Math.ceil(Date.now() / 1000) + (failure.retryAfterS ?? 60), true),
      );
    if (failure?.kind === 'unavailable') return error(503, 'E0000009', 'Internal Server Error');
    if (failure?.kind === 'gateway_timeout') return error(504, 'E0000009', 'Internal Server Error');
    // A page that is not the list Okta documents (an array of users): a proxy's or a broken release's answer.
    if (failure?.kind === 'unreadable') return { status: 200, headers: rateHeaders(), body: { users: [] } };
    return list(exchange);
  }

  async function list({ url, sleep }: ReplayExchange): Promise<ReplayAnswer> {
    const params = url.searchParams;
    const q = params.get('q');
    const requested = Number(params.get('limit') ?? (q === null ? '200' : '10'));
    if (!Number.isInteger(requested) || requested < 1)
      return error(400, 'E0000001', 'Api validation failed: limit');
    const pageSize = Math.min(requested, 200);
    const search = params.get('search');
    const filter = params.get('filter');
    // "This operation omits users that have a status of DEPROVISIONED" unless a filter or search is given;
    // `q` omits them too.
    let matches: (user: OktaUser) => boolean = (u) => u.status !== 'DEPROVISIONED';
    try {
      if (search !== null || filter !== null) {
        const predicates = [
          ...(search === null ? [] : [parseOktaSearch(search, 'search')]),
          ...(filter === null ? [] : [parseOktaSearch(filter, 'filter')]),
        ];
        matches = (u) => predicates.every((p) => p(searchAttributes(u)));
      } else if (q !== null) {
        const prefix = q.toLowerCase();
        matches = (u) =>
          u.status !== 'DEPROVISIONED' &&
          [u.profile['firstName'], u.profile['lastName'], u.profile['email']].some(
            (v) => v?.toLowerCase().startsWith(prefix) === true,
          );
      }
    } catch (e) {
      if (e instanceof SearchSyntaxError) return error(400, 'E0000031', 'Invalid search criteria.');
      throw e;
    }
    const after = params.get('after');
    const at = after === null ? { offset: 0, empty: false } : decodeCursor(after);
    if (at === undefined) return error(400, 'E0000001', 'Api validation failed: after');
    const { offset } = at;
    if (
      !(await sleep(
        switches.delayMs + (offset > 0 ? switches.laterPageDelayMs : 0),
        offset > 0 ? switches.laterPageGate : undefined,
      ))
    )
      return { status: 499 };
    const matching = users.filter(matches);
    const found = switches.foreignIdentity ? matching.map(foreignOf) : matching;
    const links = [`<${url.href}>; rel="self"`];
    const linkTo = (next: { offset: number; empty: boolean }) => {
      const link = new URL(url);
      link.searchParams.set('after', encodeCursor(next));
      link.searchParams.set('limit', String(pageSize));
      return `<${link.href}>; rel="next"`;
    };
    // An empty page that still links on (okta-sdk-nodejs collection.js, "should handle null, then continue").
    if (at.empty) return page([], [...links, linkTo({ offset, empty: false })]);
    const more = offset + pageSize < found.length;
    // `q` "doesn't support pagination": one page of at most `limit`, with no next link.
    if (more && q === null) links.push(linkTo({ offset: offset + pageSize, empty: switches.emptyPages }));
    return page(found.slice(offset, offset + pageSize), links);
  }

  const page = (users: readonly OktaUser[], links: string[]): ReplayAnswer => ({
    status: 200,
    headers: { ...rateHeaders(), 'content-type': 'application/json; charset=utf-8', link: links },
    body: users,
  });

  const upsert = (user: OktaUser): OktaUser => {
    const stamped = { ...user, lastUpdated: new Date().toISOString() };
    const at = users.findIndex((u) => u.id === user.id);
    if (at === -1) users.push(stamped);
    else users[at] = stamped;
    return stamped;
  };
  const remove = (id: string): void => {
    const at = users.findIndex((u) => u.id === id);
    if (at !== -1) users.splice(at, 1);
  };

  return { origin, people, users, upsert, remove, switches, seen: http.seen, close: () => http.close() };
}

// Okta's `after` cursors are opaque; this one carries the next offset (and `e` for the empty page served
// before it when the switch asks for one).
function encodeCursor(at: { offset: number; empty: boolean }): string {
  return `00u${Buffer.from(`${at.offset}${at.empty ? 'e' : ''}`).toString('base64url')}`;
}

function decodeCursor(cursor: string): { offset: number; empty: boolean } | undefined {
  if (!cursor.startsWith('00u')) return undefined;
  const match = /^(\d{1,9})(e?)$/.exec(Buffer.from(cursor.slice(3), 'base64url').toString());
  return match === null ? undefined : { offset: Number(match[1]), empty: match[2] === 'e' };
}
