/**
 * The Graph replay's user population as a changing directory: tests add, change and delete users between
 * reads, and every change takes the next number of one sequence, so `/users/delta` can answer what changed
 * since a delta link was issued. A deleted user stays here as a tombstone (with the reason Graph gives in
 * `@removed`: `changed` for a soft delete that can still be restored, `deleted` for a permanent one), and
 * users keep their first position, so an offset into {@link entries} stays valid while a round pages.
 */
import { randomUUID } from 'node:crypto';
import type { GraphUser } from './users.js';

/** Why Graph reports a user as removed (user-delta.md, delta-query-overview.md). */
export type RemovedReason = 'changed' | 'deleted';

/** One user as the directory tracks it. */
export interface DirectoryEntry {
  readonly id: string;
  /** Absent once the user is deleted. */
  readonly user: GraphUser | undefined;
  readonly removed?: RemovedReason;
  /** The change number that last touched this user (0: seeded). */
  readonly seq: number;
}

/** The replay's users and their change history. */
export class GraphDirectory {
  /** Changes with a number below this are forgotten: links issued before it expired. */
  #floor = 0;
  #seq = 0;
  readonly #entries = new Map<string, DirectoryEntry>();
  /** Tokens of another replay run are unknown to this one. */
  readonly epoch = randomUUID().slice(0, 8);

  constructor(users: readonly GraphUser[]) {
    for (const user of users) this.#entries.set(idOf(user), { id: idOf(user), user, seq: 0 });
  }

  /** The number of the latest change. */
  get seq(): number {
    return this.#seq;
  }

  /** Whether a link issued at change `seq` is still known (not older than the last expiry). */
  knows(seq: number): boolean {
    return seq >= this.#floor && seq <= this.#seq;
  }

  /** Users that exist now, in their first order. */
  get users(): GraphUser[] {
    return [...this.#entries.values()].flatMap((entry) => (entry.user === undefined ? [] : [entry.user]));
  }

  /** Every user ever held, deleted ones included, in their first order. */
  entries(): DirectoryEntry[] {
    return [...this.#entries.values()];
  }

  /** Adds a user (by its `id`), or brings a deleted one back. */
  add(user: GraphUser): void {
    const id = idOf(user);
    const first = this.#entries.get(id);
    if (first?.user !== undefined) throw new Error(`user ${id} already exists`);
    this.#entries.set(id, { id, user, seq: ++this.#seq });
  }

  /** Changes properties of an existing user. */
  update(id: string, changes: Readonly<Record<string, unknown>>): void {
    const entry = this.#entries.get(id);
    if (entry?.user === undefined) throw new Error(`no user ${id}`);
    this.#entries.set(id, { id, user: { ...entry.user, ...changes, id }, seq: ++this.#seq });
  }

  /** Deletes a user: `changed` is Graph's soft delete, `deleted` its permanent one. */
  remove(id: string, reason: RemovedReason = 'deleted'): void {
    const entry = this.#entries.get(id);
    if (entry?.user === undefined) throw new Error(`no user ${id}`);
    this.#entries.set(id, { id, user: undefined, removed: reason, seq: ++this.#seq });
  }

  /** Forgets every change so far: each delta link issued until now answers `410 syncStateNotFound`. */
  expireDeltaLinks(): void {
    this.#seq += 1;
    this.#floor = this.#seq;
  }
}

function idOf(user: GraphUser): string {
  const id = user['id'];
  if (typeof id !== 'string' || id === '') throw new Error('a Graph user needs an id');
  return id;
}
