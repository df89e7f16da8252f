/**
 * A real SCIM 2.0 server on loopback for the `scim` adapter's tests, benchmarks and `npm start`: SCIMMY's
 * resource model and list responses behind `scimmy-routers` on express 4 (express 5 breaks its paging:
 * docs/sources.md), serving a seeded population with real RFC 7644 filtering (the egress handler applies
 * the parsed filter; SCIMMY does not filter by itself). Express middleware in front adds what a real
 * provider also does: a `400 invalidFilter` for a filter that does not parse, cursor paging, 429, 503,
 * slowness and a wrong `meta.location` host (see {@link ScimBehaviour}).
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { parse as parseFilter } from 'scim2-parse-filter';
import SCIMMY from 'scimmy';
import SCIMMYRouters from 'scimmy-routers';
import { seededPopulation } from '../population.js';
import type { PopulationOptions, ProviderPerson } from '../population.js';
import type { ScimBehaviour, ScimRequestRecord } from './behaviour.js';
import { cursorRequest, cursorResponse } from './cursor.js';
import { caseFolded, extractLiterals, matchUsers } from './filter-literals.js';
import { eqOnlyRefusal, FULL_PROFILE, respelled } from './profile.js';

/** Options of {@link startScimServer}. */
export interface ScimServerOptions {
  /** @default 0 (a free port) */
  port?: number;
  /** @default { name: 'acme-scim', size: 300, overlap: 120 } */
  population?: PopulationOptions;
  /** The accepted bearer token. @default random */
  token?: string;
  /** People served after the seeded ones (tests add people with unusual names). @default [] */
  extraPeople?: readonly ProviderPerson[];
}

/** A running server. */
export interface ScimServer {
  /** `http://127.0.0.1:<port>/scim/v2` */
  readonly baseUrl: string;
  readonly port: number;
  readonly token: string;
  readonly people: readonly ProviderPerson[];
  /** Switch misbehaviour on and off. */
  readonly behaviour: ScimBehaviour;
  /** Every `/Users` request, in arrival order. */
  readonly requests: ScimRequestRecord[];
  /**
   * Adds a person, or replaces the one with the same id (a change at the provider, for change-feed tests):
   * the next requests serve it. `people` follows.
   */
  upsert(person: ProviderPerson): void;
  /** Deletes the person with this id (the next requests no longer serve it). */
  remove(id: string): void;
  close(): Promise<void>;
}

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const MAX_RESULTS = 200;

interface ScimContext {
  readonly users: readonly Record<string, unknown>[];
  readonly folded: readonly Record<string, unknown>[];
  /** This request's decoded filter literals (`filter-literals.ts`). */
  readonly literals: readonly string[];
}

let declared = false;
/** SCIMMY's resource registry is process-wide: declare `User` once; each server passes its users as context. */
function declareUser(): void {
  if (declared) return;
  declared = true;
  SCIMMY.Config.set({ filter: { supported: true, maxResults: MAX_RESULTS }, sort: true });
  SCIMMY.Resources.declare(SCIMMY.Resources.User.extend(SCIMMY.Schemas.EnterpriseUser, false)).egress(
    (resource, ctx: ScimContext) => {
      if (resource.id !== undefined) {
        const user = ctx.users.find((u) => u['id'] === resource.id);
        if (user === undefined) throw new SCIMMY.Types.Error(404, '', `Resource ${resource.id} not found`);
        return user as never;
      }
      const matched =
        resource.filter === undefined
          ? ctx.users
          : matchUsers(resource.filter, ctx.literals, ctx.users, ctx.folded);
      return onePage(matched, resource.constraints) as never;
    },
  );
}

/**
 * SCIMMY turns every resource the egress handler returns into a schema instance before its ListResponse
 * slices out the page (about 7 ms per user here: 2 s per page of a 300-person list). So the handler pages
 * itself and reports the total through the constraints, which SCIMMY passes to its ListResponse. Its
 * ListResponse still offsets by `startIndex` when that falls inside what it got, so for a start within the
 * first page the users before it are returned too. A requested sort needs every match: returned whole.
 */
function onePage(
  matched: readonly Record<string, unknown>[],
  constraints: { startIndex?: number; count?: number; sortBy?: string; totalResults?: number } | undefined,
): readonly Record<string, unknown>[] {
  if (constraints === undefined || constraints.sortBy !== undefined) return matched;
  const start = Math.max(1, constraints.startIndex ?? 1);
  const count = Math.max(0, constraints.count ?? 20);
  constraints.totalResults = matched.length;
  return matched.slice(start <= count ? 0 : start - 1, start - 1 + count);
}

function userOf(person: ProviderPerson): Record<string, unknown> {
  return {
    id: person.id,
    userName: person.userName,
    displayName: person.displayName,
    name: { givenName: person.givenName, familyName: person.familyName, formatted: person.displayName },
    title: person.title,
    active: person.active,
    emails: [
      { value: person.email, type: 'work', primary: true },
      ...(person.otherEmails ?? []).map((value) => ({ value, type: 'other' })),
    ],
    phoneNumbers: [{ value: person.phone, type: 'work', primary: true }],
    [ENTERPRISE]: { department: person.department, employeeNumber: person.id.slice(1) },
    meta: {
      resourceType: 'User',
      created: new Date(Date.parse(person.lastModified) - 86_400_000),
      lastModified: new Date(person.lastModified),
    },
  };
}

function scimError(res: Response, status: number, scimType: string | undefined, detail: string): void {
  res
    .status(status)
    .type('application/scim+json')
    .send(
      JSON.stringify({
        schemas: [ERROR_SCHEMA],
        status: String(status),
        ...(scimType ? { scimType } : {}),
        detail,
      }),
    );
}

/** Starts the server on 127.0.0.1. */
export async function startScimServer(options: ScimServerOptions = {}): Promise<ScimServer> {
  declareUser();
  const people = [
    ...seededPopulation(options.population ?? { name: 'acme-scim', size: 300, overlap: 120 }),
    ...(options.extraPeople ?? []),
  ];
  let users = people.map(userOf);
  let folded = caseFolded(users);
  const changed = (): void => {
    users = people.map(userOf);
    folded = caseFolded(users);
  };
  const literals = new WeakMap<Request, string[]>();
  const behaviour: ScimBehaviour = {
    cursorPaging: false,
    delayMs: 0,
    wrongLocationHost: false,
    token: options.token ?? randomBytes(24).toString('base64url'),
    profile: { ...FULL_PROFILE },
  };
  const requests: ScimRequestRecord[] = [];
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  let port = 0;
  let pages = 0;

  // Misbehaviour and the checks SCIMMY leaves to the implementer, on `/Users` lists only.
  app.use('/scim/v2/Users', (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' || req.path !== '/') return next();
    const query = Object.fromEntries(
      Object.entries(req.query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    );
    const record: ScimRequestRecord = { query, abortedByClient: false, answered: false };
    requests.push(record);
    res.on('finish', () => {
      record.answered = true;
      record.answeredAt = performance.timeOrigin + performance.now();
    });
    res.on('close', () => (record.abortedByClient = !res.writableFinished));
    void (async () => {
      const page = ++pages;
      if (behaviour.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
      await behaviour.beforePage?.(page);
      if (res.destroyed) return;
      const limit = behaviour.rateLimit;
      if (limit !== undefined && (limit.times === undefined || limit.times-- > 0)) {
        res.setHeader('Retry-After', String(limit.retryAfterSeconds));
        return scimError(res, 429, undefined, 'Too many requests');
      }
      const down = behaviour.unavailable;
      if (down !== undefined && (down.times === undefined || down.times-- > 0))
        return scimError(res, 503, undefined, 'Service unavailable');
      const filter = req.query['filter'];
      if (typeof filter === 'string') {
        const extracted = extractLiterals(filter);
        try {
          if (extracted === undefined) throw new Error('unterminated string');
          // SCIMMY accepts a comparison without a value (`userName eq`) and matches nothing: refuse it.
          const parsed = parseFilter(extracted.filter);
          const refusal = behaviour.profile.eqOnly ? eqOnlyRefusal(parsed) : undefined;
          if (refusal !== undefined) return scimError(res, 400, 'invalidFilter', refusal);
        } catch {
          return scimError(res, 400, 'invalidFilter', 'The specified filter syntax was invalid');
        }
        req.query['filter'] = extracted.filter;
        literals.set(req, extracted.values);
      }
      if (behaviour.cursorPaging && !cursorRequest(req, res)) return;
      respell(res);
      next();
    })().catch(next);
  });

  app.use(
    '/scim/v2',
    (req: Request, res: Response, next: NextFunction) => {
      if (req.path === '/ServiceProviderConfig' && behaviour.profile.noServiceProviderConfig)
        return scimError(res, 404, undefined, 'Not found');
      if (behaviour.cursorPaging && req.path === '/ServiceProviderConfig') cursorResponse.advertise(res);
      next();
    },
    new SCIMMYRouters({
      type: 'bearer',
      handler: (req: Request) => {
        if (req.header('authorization') !== `Bearer ${behaviour.token}`)
          throw new Error('Authorization failure');
        return 'reader';
      },
      context: (req: Request): ScimContext => ({ users, folded, literals: literals.get(req) ?? [] }),
      baseUri: () => `https://${behaviour.wrongLocationHost ? 'hr.other.example' : `127.0.0.1:${port}`}`,
    }),
  );

  /** Answers this `/Users` list in the profile's spelling and media type. */
  function respell(res: Response): void {
    const { otherCase, contentType } = behaviour.profile;
    if (!otherCase && contentType === undefined) return;
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      if (res.statusCode !== 200) return send(body);
      const json: unknown = typeof body === 'string' ? JSON.parse(body) : body;
      if (contentType !== undefined) res.type(contentType);
      return send(JSON.stringify(otherCase ? respelled(json) : json));
    };
  }

  const server: Server = app.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  port = address.port;
  return {
    baseUrl: `http://127.0.0.1:${port}/scim/v2`,
    port,
    get token() {
      return behaviour.token;
    },
    people,
    behaviour,
    requests,
    upsert(person) {
      const at = people.findIndex((p) => p.id === person.id);
      if (at === -1) people.push(person);
      else people[at] = person;
      changed();
    },
    remove(id) {
      const at = people.findIndex((p) => p.id === id);
      if (at !== -1) people.splice(at, 1);
      changed();
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
