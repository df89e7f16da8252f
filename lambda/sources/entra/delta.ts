/**
 * The `entra` kind's entry in the cache's table of change feeds. The factory notes each source's validated
 * options here when it builds the source; the feed's code (the delta round, the broker, the kernel) is loaded
 * on the feed's first use, like the adapter's read path (`registry/deferred.ts`).
 */
import type { ChangeFeed } from '../cache/port.js';
import type { ProviderSettings } from '../kernel/settings.js';
import type { SourceSpec } from '../registry/types.js';
import type { EntraSourceOptions } from './options.js';

interface Built {
  readonly options: EntraSourceOptions;
  readonly settings: ProviderSettings;
  feed?: Promise<ChangeFeed>;
}

// Keyed by the spec object the factory was given: the composition's `specOf` hands back that same object.
const built = new WeakMap<SourceSpec, Built>();

/** Called by the `entra` factory for each source it builds. */
export function noteEntraSource(
  spec: SourceSpec,
  options: EntraSourceOptions,
  settings: ProviderSettings,
): void {
  built.set(spec, { options, settings });
}

/** The Graph delta feed of a source the `entra` factory built, or `undefined` for any other spec. */
export function entraDeltaFeed(spec: SourceSpec): ChangeFeed | undefined {
  const known = built.get(spec);
  if (known === undefined) return undefined;
  const load = () =>
    (known.feed ??= import('./delta-feed.js').then(
      ({ createEntraDeltaFeed }) => createEntraDeltaFeed(spec, known.options, known.settings),
      (error: unknown) => {
        known.feed = undefined;
        throw error;
      },
    ));
  return {
    tombstones: true,
    async *changes(watermark, options, resumeFrom) {
      yield* (await load()).changes(watermark, options, resumeFrom);
    },
  };
}
