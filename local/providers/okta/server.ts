/**
 * A replay of Okta's Users API `GET /api/v1/users` — NOT Okta. No local emulator of Okta exists, so this
 * server replays the shapes Okta documents: `search` expressions (search.ts) and `q`, `limit` up to 200,
 * cursor paging through `Link: <…>; rel="next"` with `after`, `X-Rate-Limit-Limit/-Remaining/-Reset` and
 * `Date` on every answer, `429` with `E0000047` (developer.okta.com/docs/reference/rl-best-practices/) and
 * Okta's error objects (`errorCode`, `errorSummary`, `errorLink`, `errorId`, `errorCauses`). Its bearer
 * tokens are real: issued by the local `oidc-provider` for the org URL and verified with `jose`.
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
  /** The people behind {@link users}, in the same order. */
  readonly people: readonly ProviderPerson[];
  readonly users: readonly OktaUser[];
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
  const users = people.map((p) => oktaUser(p, origin));
  const foreign = people.map((p) => oktaUser(p, FOREIGN_ORG));
  const check = createBearerCheck({ issuer: options.issuer, jwksUrl: options.jwksUrl, audience: origin });

  const rateHeaders = (resetS?: number): Record<string, string> => {
    const now = Date.now();
    if (now >= window.reset * 1000) window = { reset: Math.ceil(now / 1000) + 60, used: 0 };
    window.used += 1;
    return {
      date: new Date(now).toUTCString(),
      'x-rate-limit-limit': String(limit),
      'x-rate-limit-remaining': String(Math.max(0, limit - window.used)),
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
        rateHeaders(Math.ceil(Date.now() / 1000) + failure.retryAfterS),
      );
    if (failure?.kind === 'unavailable') return error(503, 'E0000009', 'Internal Server Error');
    return list(exchange);
  }

  async function list({ url, sleep }: ReplayExchange): Promise<ReplayAnswer> {
    const params = url.searchParams;
    const requested = Number(params.get('limit') ?? '200');
    if (!Number.isInteger(requested) || requested < 1)
      return error(400, 'E0000001', 'Api validation failed: limit');
    const pageSize = Math.min(requested, 200);
    let matches: (user: OktaUser) => boolean = () => true;
    const search = params.get('search') ?? params.get('filter');
    const q = params.get('q')?.toLowerCase();
    try {
      if (search !== null) {
        const predicate = parseOktaSearch(search);
        matches = (u) => predicate(searchAttributes(u));
      } else if (q !== undefined) {
        matches = (u) =>
          [u.profile['firstName'], u.profile['lastName'], u.profile['email']].some(
            (v) => v?.toLowerCase().startsWith(q) === true,
          );
      }
    } catch (e) {
      if (e instanceof SearchSyntaxError) return error(400, 'E0000031', 'Invalid search criteria.');
      throw e;
    }
    const after = params.get('after');
    const offset = after === null ? 0 : decodeCursor(after);
    if (offset === undefined) return error(400, 'E0000001', 'Api validation failed: after');
    if (
      !(await sleep(
        switches.delayMs + (offset > 0 ? switches.laterPageDelayMs : 0),
        offset > 0 ? switches.laterPageGate : undefined,
      ))
    )
      return { status: 499 };
    const source = switches.foreignIdentity ? foreign : users;
    const found = source.filter((_, i) => matches(users[i]!));
    const page = found.slice(offset, offset + pageSize);
    const self = new URL(url);
    const links = [`<${self.href}>; rel="self"`];
    if (offset + pageSize < found.length) {
      const next = new URL(url);
      next.searchParams.set('after', encodeCursor(offset + pageSize));
      next.searchParams.set('limit', String(pageSize));
      links.push(`<${next.href}>; rel="next"`);
    }
    return { status: 200, headers: { ...rateHeaders(), link: links.join(', ') }, body: page };
  }

  return { origin, people, users, switches, seen: http.seen, close: () => http.close() };
}

// Okta's `after` cursors are opaque; this one carries the next offset.
function encodeCursor(offset: number): string {
  return `00u${Buffer.from(String(offset)).toString('base64url')}`;
}

function decodeCursor(cursor: string): number | undefined {
  if (!cursor.startsWith('00u')) return undefined;
  const text = Buffer.from(cursor.slice(3), 'base64url').toString();
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}
