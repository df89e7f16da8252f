/**
 * Test factories for the federation engine: raw records with overrides, and scripted adapters whose pages,
 * delays and failures are set per test (including adapters that ignore their abort signal).
 */
import type {
  RawRecord,
  ReadOptions,
  SourceAdapter,
  SourceQuery,
  SourceRef,
} from '../../../../lambda/federation/index.js';

/** A source pair. */
export const ref = (source_identity: string, source_type = 'test'): SourceRef => ({
  source_type,
  source_identity,
});

/** A valid raw record of `source` with overrides. */
export function rawRecord(
  source: SourceRef,
  external_id: string,
  overrides: Partial<RawRecord> = {},
): RawRecord {
  return {
    ...source,
    external_id,
    record_type: 'person',
    observed_at: '2026-10-08T12:00:00Z',
    capabilities: ['read'],
    display_name: `Person ${external_id}`,
    email: null,
    phone: null,
    lifecycle: null,
    attributes: {},
    ...overrides,
  };
}

/** `count` distinct records of `source` (external ids `<prefix>1…`), no shared emails/phones. */
export function records(source: SourceRef, count: number, prefix = 'r'): RawRecord[] {
  return Array.from({ length: count }, (_, i) => rawRecord(source, `${prefix}${i + 1}`));
}

/** What a scripted adapter saw. */
export interface ReadLog {
  started: number;
  pulls: number;
  aborted: boolean;
  abortedAt?: number;
  returned: boolean;
  query?: SourceQuery;
  options?: ReadOptions;
}

export interface ScriptOptions {
  /** Delay before each page, in ms (wakes on abort unless `ignoreAbort`). */
  delayMs?: number;
  /** After the pages: hang forever, or throw this. */
  then?: 'hang' | 'end' | { throw: unknown };
  /** Sleep and hang without listening to the signal (a badly behaved provider client). */
  ignoreAbort?: boolean;
  timeoutMs?: number;
  /** Called when a read starts and ends, to count reads in flight. */
  onStart?: () => void;
  onEnd?: () => void;
}

const wait = (ms: number, signal: AbortSignal, ignoreAbort: boolean) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    if (!ignoreAbort)
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(new Error('aborted'));
        },
        { once: true },
      );
  });

/** An adapter yielding `pages` as scripted; the returned log records what the engine did to it. */
export function scripted(source: SourceRef, pages: RawRecord[][], script: ScriptOptions = {}) {
  const log: ReadLog = { started: 0, pulls: 0, aborted: false, returned: false };
  const adapter: SourceAdapter = {
    source,
    ...(script.timeoutMs === undefined ? {} : { timeoutMs: script.timeoutMs }),
    read(query, options) {
      log.started++;
      log.query = query;
      log.options = options;
      options.signal.addEventListener('abort', () => {
        log.aborted = true;
        log.abortedAt = Date.now();
      });
      script.onStart?.();
      let index = 0;
      let ended = false;
      const end = () => {
        if (!ended) script.onEnd?.();
        ended = true;
      };
      const iterator: AsyncIterableIterator<RawRecord[]> = {
        async next() {
          log.pulls++;
          if (script.delayMs !== undefined)
            await wait(script.delayMs, options.signal, script.ignoreAbort === true);
          const page = pages[index++];
          if (page !== undefined) return { done: false, value: page };
          const then = script.then ?? 'end';
          if (then === 'hang') {
            if (script.ignoreAbort === true) await new Promise(() => undefined);
            else await wait(1e9, options.signal, false);
          }
          end();
          if (typeof then === 'object') throw then.throw;
          return { done: true, value: undefined };
        },
        return() {
          log.returned = true;
          end();
          return Promise.resolve({ done: true, value: undefined });
        },
        [Symbol.asyncIterator]() {
          return this;
        },
      };
      return iterator;
    },
  };
  return { adapter, log };
}

/** A fixed clock at 2026-10-08T12:00:00Z (the contract's example instant). */
export const fixedClock = () => Date.parse('2026-10-08T12:00:00Z');

/** A deadline `ms` from now. */
export const inMs = (ms: number) => Date.now() + ms;
