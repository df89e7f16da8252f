/** An in-process `TaskStore` for tests and single-process servers (records are deep-copied both ways). */
import { ROUND_SETTLE_MS, TaskExistsError } from './task-store.js';
import type { TaskPage, TaskRecord, TaskStore } from '../types/tasks.js';

/** Tasks in a `Map`, in creation order. */
export class InMemoryTaskStore implements TaskStore {
  readonly #records = new Map<string, TaskRecord>();

  create(record: TaskRecord): Promise<void> {
    const key = keyOf(record.owner, record.taskId);
    if (this.#records.has(key)) return Promise.reject(new TaskExistsError());
    this.#records.set(key, structuredClone(record));
    return Promise.resolve();
  }

  get(owner: string, taskId: string): Promise<TaskRecord | undefined> {
    const record = this.#records.get(keyOf(owner, taskId));
    return Promise.resolve(record === undefined ? undefined : structuredClone(record));
  }

  replace(record: TaskRecord, expectedVersion: number): Promise<boolean> {
    const key = keyOf(record.owner, record.taskId);
    const stored = this.#records.get(key);
    if (stored === undefined || stored.version !== expectedVersion) return Promise.resolve(false);
    this.#records.set(key, { ...structuredClone(record), version: expectedVersion + 1 });
    return Promise.resolve(true);
  }

  list(owner: string, limit: number, cursor?: string): Promise<TaskPage> {
    const mine = [...this.#records.values()].filter((r) => r.owner === owner);
    const start = cursor === undefined ? 0 : mine.findIndex((r) => r.taskId === cursor) + 1;
    const records = mine.slice(start, start + limit).map((r) => structuredClone(r));
    const last = records.at(-1);
    const more = start + limit < mine.length;
    return Promise.resolve(more && last !== undefined ? { records, nextCursor: last.taskId } : { records });
  }

  countActive(owner: string, now: number): Promise<number> {
    let count = 0;
    for (const r of this.#records.values()) {
      if (r.owner !== owner) continue;
      if (r.status === 'input_required' ? r.expiresAt > now : r.status === 'working' && holdsRound(r, now))
        count += 1;
    }
    return Promise.resolve(count);
  }
}

function holdsRound(record: TaskRecord, now: number): boolean {
  return record.deadline + ROUND_SETTLE_MS > now;
}

function keyOf(owner: string, taskId: string): string {
  return `${owner}\n${taskId}`;
}
