/**
 * The source cache's sync worker (`bos.cache.sync` events, docs/cache.md): the directory's sources (their
 * specs carry the cache policy) and the baseline store on `BOS_BASELINE_TABLE`, joined to the sync run of
 * `lambda/sources/cache`. Each source's outcome is one log line and its metrics: counts, times, the error's
 * class and code; never a watermark, a checkpoint or a provider's text (a Graph delta link is a bearer URL).
 */
import { randomUUID } from 'node:crypto';
import type { PlatformConfig } from '../aws/index.js';
import type { Logger } from '../mcp/index.js';
import { runSyncs } from '../sources/cache/index.js';
import type { BaselineStore, SyncOutcome } from '../sources/cache/index.js';
import { composeBaselineStore } from './compose-baseline.js';
import type { ComposedApp } from './compose-entry.js';
import type { ComposedSources } from './compose-sources.js';

/** Time kept back from the invocation's deadline to save state and release leases. */
export const SYNC_RESERVE_MS = 5_000;
/** The run's length when the invocation names no deadline (a test or a local call). */
const DEFAULT_RUN_MS = 60_000;

/** Options of {@link composeCacheSync}. */
export interface CacheSyncOptions {
  /** @default the DynamoDB store on `config.baselineTable` */
  store?: BaselineStore;
  /** Told of each source's outcome (the sync metrics). */
  onOutcome?: (outcome: SyncOutcome) => void;
}

/** The app's `syncCache`, or undefined when no baseline table is configured (nothing is cached). */
export function composeCacheSync(
  config: PlatformConfig,
  sources: ComposedSources,
  logger: Logger,
  options: CacheSyncOptions = {},
): ComposedApp['syncCache'] {
  if (options.store === undefined && config.baselineTable === undefined) return undefined;
  let store = options.store;
  return async (request, invocation) => {
    store ??= composeBaselineStore(config, config.baselineTable ?? '');
    // Table-backed definitions older than their TTL are read again: a source just opted in syncs now.
    await sources.refresh();
    const deadline = invocation.deadline ?? Date.now() + DEFAULT_RUN_MS;
    const directory = [...sources.sources].flatMap(([id, adapter]) => {
      const spec = sources.specOf(id);
      return spec === undefined ? [] : [{ spec, adapter }];
    });
    // A source in service without a spec is one whose definition failed to load: it serves an error.
    const unreadable = [...sources.sources.keys()].filter((id) => sources.specOf(id) === undefined);
    const result = await runSyncs({
      sources: directory,
      unreadable,
      store,
      ...(request.sourceIds === undefined ? {} : { only: request.sourceIds }),
      owner: invocation.workerId ?? randomUUID(),
      stopAt: deadline - SYNC_RESERVE_MS,
      onOutcome: (outcome) => {
        const { sourceId, ...fields } = outcome;
        const failed = outcome.result === 'failed';
        logger[failed ? 'warn' : 'info']('bos.cache.synced', { source_id: sourceId, ...fields });
        options.onOutcome?.(outcome);
      },
      onPurge: (sourceId) => logger.info('bos.cache.purged', { source_id: sourceId }),
    });
    logger.info('bos.cache.sync_run', {
      synced: result.outcomes.length,
      deferred: result.deferred,
      purged: result.purged.length,
    });
  };
}
