/**
 * A factory whose adapter code is loaded on the source's first read. The definition's options are read (and
 * refused) when the source is built, exactly as by the adapter itself; what a read needs (the kernel, the
 * LDAP client, the OAuth broker) is imported only when a call first reads a source of that kind. A
 * function whose directory has no LDAP source never loads ldapts, and `initialize` loads no adapter at all
 * (docs/performance.md "Cold start").
 */
import type { ReadOptions, SourceAdapter, SourceQuery, SourceRef } from '../../federation/index.js';
import type { SourceFactory, SourceSpec } from './types.js';

/** What every kind's options say about the adapter before its code is loaded. */
export interface DeferredSourceOptions {
  readonly sourceType: string;
  readonly timeoutMs?: number;
}

/** Builds the adapter of one spec from its already-validated options (the kind's `create*Source`). */
export type SourceConstructor<O> = (spec: SourceSpec, options: O) => SourceAdapter;

/**
 * A {@link SourceFactory} that validates with `readOptions` at once and builds the adapter with the
 * constructor `load` resolves to, once per source, on its first read. The adapter keeps what it holds (a
 * token cache) for as long as the source lives, as when built eagerly. A failed load is not remembered: the
 * read fails (the engine ends the source with `source_unavailable`) and the next read loads again.
 */
export function deferredSourceFactory<O extends DeferredSourceOptions>(
  readOptions: (spec: SourceSpec) => O,
  load: () => Promise<SourceConstructor<O>>,
): SourceFactory {
  return (spec) => {
    const options = readOptions(spec);
    const source: SourceRef = { source_type: options.sourceType, source_identity: spec.source_id };
    let adapter: Promise<SourceAdapter> | undefined;
    const loaded = (): Promise<SourceAdapter> =>
      (adapter ??= load().then(
        (create) => create(spec, options),
        (error: unknown) => {
          adapter = undefined;
          throw error;
        },
      ));
    async function* read(query: SourceQuery, readOptions: ReadOptions) {
      yield* (await loaded()).read(query, readOptions);
    }
    return {
      source,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      read,
    };
  };
}
