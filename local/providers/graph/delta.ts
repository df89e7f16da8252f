/**
 * The replay's `GET /v1.0/users/delta` (`api-reference/v1.0/api/user-delta.md`, `concepts/delta-query-overview.md`,
 * `concepts/delta-query-users.md`): the first round pages through every current user with `@odata.nextLink`
 * (`$skiptoken`) and ends with an `@odata.deltaLink` (`$deltatoken`); following that link answers the users
 * added or changed since it was issued (with every property the first call selected) and the deleted ones as
 * `{ id, "@removed": { reason } }`. `$select` is taken from the first call only and carried inside the tokens,
 * as Graph does. `$deltatoken=latest` answers no users and a link from now. A token this replay did not issue,
 * or one issued before {@link GraphDirectory.expireDeltaLinks}, gets `410 Gone` with `syncStateNotFound`.
 * The tokens are opaque base64url, like Graph's; a change made while a round pages is answered again in the
 * next round (the round's delta link dates from its start), so nothing is lost.
 */
import type { ReplayAnswer } from '../replay/http-server.js';
import type { GraphDirectory } from './directory.js';
import { deltaPage, graphError } from './payloads.js';
import { DEFAULT_SELECT, project, SELECTABLE } from './users.js';

/** Where a round stands, inside a `$skiptoken` or (`offset` 0) a `$deltatoken`. */
interface RoundState {
  readonly epoch: string;
  /** Changes after this number are answered; -1 on the first round (every current user). */
  readonly since: number;
  /** The change number when the round began: its delta link continues from there. */
  readonly at: number;
  readonly offset: number;
  readonly select: readonly string[];
}

const expired = (): ReplayAnswer =>
  graphError(410, 'syncStateNotFound', 'The sync state generation is not found or has expired.');

/** Answers one `/users/delta` request with pages of `pageSize` entries. */
export function answerDelta(
  url: URL,
  directory: GraphDirectory,
  origin: string,
  pageSize: number,
): ReplayAnswer {
  const params = url.searchParams;
  const skip = params.get('$skiptoken');
  const delta = params.get('$deltatoken');
  let state: RoundState | undefined;
  if (delta === 'latest') state = round(directory, directory.seq, directory.seq, []);
  else if (delta !== null || skip !== null) {
    state = decode(skip ?? delta ?? '');
    if (
      state === undefined ||
      state.epoch !== directory.epoch ||
      !directory.knows(state.since === -1 ? state.at : state.since)
    )
      return expired();
    if (delta !== null) state = round(directory, state.at, directory.seq, state.select);
  } else {
    const select = params.get('$select')?.split(',') ?? [...DEFAULT_SELECT];
    if (select.some((name) => !SELECTABLE.has(name)))
      return graphError(
        400,
        'Request_BadRequest',
        "Could not find a property on the type 'microsoft.graph.user'.",
      );
    state = round(directory, -1, directory.seq, select);
  }
  const select = state.select.includes('id') ? state.select : [...state.select, 'id'];
  const entries = directory.entries();
  const value: unknown[] = [];
  let offset = state.offset;
  for (; offset < entries.length && value.length < pageSize; offset++) {
    const entry = entries[offset]!;
    if (state.since === -1 ? entry.user === undefined : entry.seq <= state.since) continue;
    value.push(
      entry.user === undefined
        ? { '@odata.type': '#microsoft.graph.user', id: entry.id, '@removed': { reason: entry.removed } }
        : project(entry.user, select),
    );
  }
  const link = new URL(`${origin}/v1.0/users/delta`);
  const context = `${origin}/v1.0/$metadata#users`;
  if (offset < entries.length) {
    link.searchParams.set('$skiptoken', encode({ ...state, offset }));
    return deltaPage(context, value, { nextLink: link.href });
  }
  link.searchParams.set('$deltatoken', encode({ ...state, since: state.at, offset: 0 }));
  return deltaPage(context, value, { deltaLink: link.href });
}

function round(directory: GraphDirectory, since: number, at: number, select: readonly string[]): RoundState {
  return { epoch: directory.epoch, since, at, offset: 0, select };
}

function encode(state: RoundState): string {
  const { epoch, since, at, offset, select } = state;
  return Buffer.from(JSON.stringify([epoch, since, at, offset, select])).toString('base64url');
}

function decode(token: string): RoundState | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString());
    if (!Array.isArray(value) || value.length !== 5) return undefined;
    const [epoch, since, at, offset, select] = value as unknown[];
    const integers = [since, at, offset].every((n) => Number.isSafeInteger(n) && (n as number) >= -1);
    const names =
      Array.isArray(select) && select.every((name) => typeof name === 'string' && SELECTABLE.has(name));
    if (typeof epoch !== 'string' || !integers || !names) return undefined;
    return {
      epoch,
      since: since as number,
      at: at as number,
      offset: offset as number,
      select: select as string[],
    };
  } catch {
    return undefined;
  }
}
