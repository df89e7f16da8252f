/**
 * The platform's source adapters, built from the directory's source definitions (docs/bos.md
 * "Wiring"): the embedded demo document's when no `BOS_DIRECTORY_TABLE` is set, else the table's
 * `SOURCES` / `SOURCE#<id>` items. A definition's `adapter` kind picks a factory of `lambda/sources`; its
 * `credential_ref` becomes a `SourceCredential` that the adapter resolves only inside its read, so a
 * secret value never passes through here, nor into an output, error or log line.
 *
 * - Embedded directory: built once at cold start; an unknown kind or bad options is a `ConfigError`
 *   (the entry answers a generic 500, the problems go to the log).
 * - Table-backed: definitions are cached per execution environment for `definitionsTtlMs` (30 s) and
 *   re-read by `refresh()` before a federated operation; a malformed or refused definition fails only its own source
 *   (`source_unavailable`) and logs `bos.sources.invalid_definition` with its id. Grants are not cached
 *   here: the directory re-checks them on every call.
 * - The local-only fixture knobs (`compose-fixture-knobs.ts`) still apply: a preset other than `demo`
 *   replaces the directory's sources; the latency scale and tracing apply to directory-built ones too.
 */
import { ConfigError } from '../aws/index.js';
import type { PlatformConfig } from '../aws/index.js';
import {
  DEMO_DIRECTORY_DOCUMENT,
  readSourceDefinitionEntries,
  sourceCacheMillis,
  sourceCredential,
} from '../bos/index.js';
import type { CredentialResolver, DirectoryItemsReader, SourceDefinition } from '../bos/index.js';
import type { SourceAdapter } from '../federation/index.js';
import type { Logger } from '../mcp/index.js';
import {
  buildSource,
  createCachedSource,
  createFixtureSource,
  createSourceCatalog,
  createSourceFactories,
  FIXTURE_ADAPTER,
  fixturePreset,
  kindMatchFor,
  scaleLatency,
  SourceConfigError,
  traceSource,
} from '../sources/index.js';
import type { BaselineStore, ChangeFeed, ProviderSettings, SourceSpec } from '../sources/index.js';
import { composeCredentialResolver } from './compose-directory.js';
import { isLocalRun, localKnobs } from './compose-fixture-knobs.js';
import type { LocalKnobs } from './compose-fixture-knobs.js';

export { isLocalRun };

type Env = Readonly<Record<string, string | undefined>>;

/** How long table-backed source definitions are used before they are read again. */
export const SOURCE_DEFINITIONS_TTL_MS = 30_000;

/** The adapters and the call that keeps table-backed ones current. */
export interface ComposedSources {
  /** Source id → adapter, what `createBosPlatform` reads (the same Map throughout). */
  readonly sources: ReadonlyMap<string, SourceAdapter>;
  /** Re-reads table-backed definitions older than the TTL; resolves at once otherwise. Never rejects. */
  refresh(): Promise<void>;
  /** The adapter kind (`fixture`, `scim`, …) a source id was built with: the `source.type` of its metrics. */
  kindOf(sourceId: string): string | undefined;
  /**
   * The spec a source id was built from (its kind, options, bound credential and cache policy): what the
   * source cache's sync and read paths build a change feed from. `undefined` for a fixture-preset source.
   */
  specOf(sourceId: string): SourceSpec | undefined;
}

/** Options of {@link composeSources}. */
export interface SourceCompositionOptions {
  /** `BOS_DIRECTORY_TABLE`'s items (`composeDirectoryItems`); absent = the embedded definitions. */
  items?: DirectoryItemsReader;
  /** The embedded directory's definitions. @default DEMO_DIRECTORY_DOCUMENT.sources */
  definitions?: readonly SourceDefinition[];
  /** Where the function runs, decided once by the composition root. @default localKnobs(config, env, logger) */
  knobs?: LocalKnobs;
  /** @default composeCredentialResolver(knobs.local, env), made when a credential is first resolved */
  resolver?: CredentialResolver;
  /** @default SOURCE_DEFINITIONS_TTL_MS */
  definitionsTtlMs?: number;
  /** Told of every wait the provider kernel makes on a `429` (the source's rate-limit metric). */
  onRateLimitWait?: (sourceId: string, waitMs: number) => void;
  /** Told of every read a provider answered by local matching (the source's local-match metric). */
  onLocalMatch?: (sourceId: string) => void;
  /** The source cache: without it, a source whose definition sets `cache` reads live as before. */
  cache?: SourceCacheWiring;
}

/** What the read path of the source cache needs from the composition root. */
export interface SourceCacheWiring {
  /** The baseline store (DynamoDB when deployed; keyed by source id, so a context reads only its sources). */
  readonly store: BaselineStore;
  /**
   * The change feed of a cached source over its live adapter, or undefined when its kind has none (that
   * source reads live). Usually `changeFeedFor` of `lambda/sources/cache`.
   */
  feedFor(spec: SourceSpec, live: SourceAdapter): ChangeFeed | undefined;
}

/**
 * Builds the platform's sources. Throws `ConfigError` for a malformed knob on a local run, or for an
 * embedded definition no factory accepts.
 * @param env usually `process.env`
 */
export function composeSources(
  config: PlatformConfig,
  env: Env,
  logger: Logger,
  options: SourceCompositionOptions = {},
): ComposedSources {
  const { local, fixture: knobs } = options.knobs ?? localKnobs(config, env, logger);
  const traced = (adapter: SourceAdapter): SourceAdapter =>
    knobs.trace ? traceSource(adapter, (e) => logger.info(`bos.fixture.${e.kind}`, { ...e })) : adapter;
  if (knobs.preset !== 'demo') {
    // A local scenario (tests, benchmarks) replaces the directory's sources under the same five ids.
    const presets = scaleLatency(fixturePreset(knobs.preset), knobs.latencyScale);
    return fixed(
      presets.map((o) => traced(createFixtureSource(o))),
      () => FIXTURE_ADAPTER,
      () => undefined,
    );
  }

  let resolver = options.resolver;
  const resolve = (name: string): Promise<string> =>
    (resolver ??= composeCredentialResolver(local, env)).resolve(name);
  const settings = providerSettings(local, logger, options);
  const factories = createSourceFactories(settings, { latencyScale: knobs.latencyScale });
  const toSpec = (definition: SourceDefinition): SourceSpec => specFor(definition, resolve, logger);
  const specs = new Map<string, SourceSpec>();
  const build = (spec: SourceSpec): SourceAdapter => {
    const adapter = cachedOrLive(spec, traced(buildSource(spec, factories)), options.cache, logger);
    specs.set(spec.source_id, spec);
    return adapter;
  };
  const kindOf = (sourceId: string) => specs.get(sourceId)?.adapter;
  const specOf = (sourceId: string) => specs.get(sourceId);

  const items = options.items;
  if (items === undefined)
    return fixed(
      buildAll((options.definitions ?? DEMO_DIRECTORY_DOCUMENT.sources).map(toSpec), build),
      kindOf,
      specOf,
    );
  const catalog = createSourceCatalog({
    load: async () =>
      (await readSourceDefinitionEntries(items)).map((entry) =>
        'definition' in entry ? toSpec(entry.definition) : entry,
      ),
    build,
    onInvalid: (sourceId, error) =>
      logger.error('bos.sources.invalid_definition', { source_id: sourceId, ...problemsOf(error) }),
    onLoadError: (error) => logger.error('bos.sources.load_failed', problemsOf(error)),
    ttlMs: options.definitionsTtlMs ?? SOURCE_DEFINITIONS_TTL_MS,
  });
  return { sources: catalog.sources, refresh: () => catalog.refresh(), kindOf, specOf };
}

/**
 * The provider kernel's settings: plain `http`/`ldap` to loopback hosts only on a local run (the local
 * stack's SCIM server and slapd); its log lines (codes, reasons, statuses, counts: never provider text)
 * as `bos.sources.<event>`.
 */
function providerSettings(
  local: boolean,
  logger: Logger,
  metrics: Pick<SourceCompositionOptions, 'onRateLimitWait' | 'onLocalMatch'>,
): ProviderSettings {
  return {
    allowLoopbackHttp: local,
    log: ({ event, source, ...detail }) => {
      // Every locally matched read is counted, not logged: the degradation itself was logged once.
      if (event === 'provider_local_match') return metrics.onLocalMatch?.(source.source_identity);
      const fields = { source_type: source.source_type, source_identity: source.source_identity, ...detail };
      if (event === 'provider_failed') logger.warn(`bos.sources.${event}`, fields);
      else logger.info(`bos.sources.${event}`, fields);
      // A source's identity is its id (`buildSource`).
      if (event === 'provider_rate_limit_wait' && detail.wait_ms !== undefined)
        metrics.onRateLimitWait?.(source.source_identity, detail.wait_ms);
    },
  };
}

/**
 * The spec of one definition. Its credential resolves through `resolve` only when the adapter asks; a
 * failure is logged with the reference and the error's class and code, never a message or a value.
 */
function specFor(
  definition: SourceDefinition,
  resolve: (name: string) => Promise<string>,
  logger: Logger,
): SourceSpec {
  const { source_id, adapter, options, credential_ref } = definition;
  const policy = sourceCacheMillis(definition.cache);
  const cache = policy === undefined ? {} : { cache: policy };
  if (credential_ref === undefined) return { source_id, adapter, options, ...cache };
  const logged: CredentialResolver = {
    async resolve(name) {
      try {
        return await resolve(name);
      } catch (error) {
        logger.warn('bos.sources.credential_unavailable', {
          source_id,
          credential_ref: name,
          errorName: error instanceof Error ? error.name : typeof error,
          errorCode: (error as { code?: unknown } | undefined)?.code,
        });
        throw error;
      }
    },
  };
  return { source_id, adapter, options, credential: sourceCredential(logged, credential_ref), ...cache };
}

/**
 * A source whose spec opts in to the cache (and whose kind has a change feed) reads through its baseline
 * (`lambda/sources/cache`); any other reads live. The wrapped adapter keeps the live one's pair and timeout.
 */
function cachedOrLive(
  spec: SourceSpec,
  live: SourceAdapter,
  cache: SourceCacheWiring | undefined,
  logger: Logger,
): SourceAdapter {
  const feed = spec.cache === undefined ? undefined : cache?.feedFor(spec, live);
  if (spec.cache === undefined || cache === undefined || feed === undefined) return live;
  const match = kindMatchFor(spec.adapter);
  return createCachedSource({
    live,
    sourceId: spec.source_id,
    store: cache.store,
    feed,
    policy: spec.cache,
    // The kind's own matcher where its live search is not the kernel's containment (Graph's, Okta's prefixes).
    ...(match === undefined ? {} : { match }),
    // The error's class and code only: the read goes on live, and a store message has no use to a reader.
    onStoreError: (error) =>
      logger.warn('bos.sources.baseline_unreadable', {
        source_id: spec.source_id,
        errorName: error instanceof Error ? error.name : typeof error,
        errorCode: (error as { code?: unknown } | undefined)?.code,
      }),
  });
}

/** Every spec built, or one `ConfigError` listing every definition's problems. */
function buildAll(specs: readonly SourceSpec[], build: (spec: SourceSpec) => SourceAdapter): SourceAdapter[] {
  const problems: string[] = [];
  const adapters: SourceAdapter[] = [];
  for (const spec of specs) {
    try {
      adapters.push(build(spec));
    } catch (error) {
      if (!(error instanceof SourceConfigError)) throw error;
      problems.push(...error.problems.map((problem) => `source ${spec.source_id}: ${problem}`));
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return adapters;
}

function fixed(
  adapters: readonly SourceAdapter[],
  kindOf: (sourceId: string) => string | undefined,
  specOf: (sourceId: string) => SourceSpec | undefined,
): ComposedSources {
  return {
    sources: new Map(adapters.map((a) => [a.source.source_identity, a])),
    refresh: () => Promise.resolve(),
    kindOf,
    specOf,
  };
}

/** Log fields of a definition or store problem (non-secret by construction: names, codes, option paths). */
function problemsOf(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { errorName: typeof error };
  const code = (error as { code?: unknown }).code;
  return {
    errorName: error.name,
    ...(code === undefined ? {} : { errorCode: code }),
    ...(error instanceof SourceConfigError ? { problems: error.problems } : { errorMessage: error.message }),
  };
}
