/**
 * Composition of the BOS platform (DESIGN §5): config -> stores and rate limit -> token verifier -> directory -> sources
 * (from the directory's source definitions) -> `createBosPlatform`. Runs once per execution environment: in
 * Lambda's init phase (`platform.ts`), where `prepare()` then starts the JWKS fetch, or else on the first
 * invocation.
 */
import { ConfigError, errorFields, loadConfig } from '../aws/index.js';
import type { InvocationTelemetry } from '../aws/index.js';
import { BOS_READ_SCOPE, createBosPlatform, createJwtVerifier } from '../bos/index.js';
import type { Logger } from '../mcp/index.js';
import { changeFeedFor } from '../sources/cache/index.js';
import { composeBaselineStore } from './compose-baseline.js';
import { composeCacheSync } from './compose-cache-sync.js';
import { assertDeployableAuth, composeDirectory, composeDirectoryItems } from './compose-directory.js';
import type { ComposedApp } from './compose-entry.js';
import { localKnobs } from './compose-fixture-knobs.js';
import { createConsoleAssets, servesConsolePath } from './console-assets.js';
import { composeSources } from './compose-sources.js';
import { composeRateLimit } from './compose-rate-limit.js';
import { composeStores } from './compose-stores.js';
import { boundedKeySetFetch } from './key-set-fetch.js';
import { operationTelemetry } from './operation-telemetry.js';

/** The platform endpoint (DESIGN §1); the same constant the CDK routes (`lib/routes.ts`). */
export const MCP_PATH = '/mcp/apps/bos/platform';

/** RFC 9728 §3.1 metadata routes the CDK deploys next to the endpoint (`lib/routes.ts`). */
const WELL_KNOWN_ROOT = '/.well-known/oauth-protected-resource';
const PLATFORM_PATHS = new Set([MCP_PATH, WELL_KNOWN_ROOT, `${WELL_KNOWN_ROOT}${MCP_PATH}`]);

/** True for the paths the platform function answers (the console's too); anything else gets the entry's 404. */
export function servesPlatformPath(path: string): boolean {
  return PLATFORM_PATHS.has(path) || servesConsolePath(path);
}

/**
 * Builds the platform from the environment. Throws `ConfigError` when the endpoint or token validation is
 * not configured: the platform refuses to run without authentication (DESIGN §5 "Principal").
 * @param env usually `process.env`
 */
export function composePlatform(
  env: Readonly<Record<string, string | undefined>>,
  logger: Logger,
  telemetry?: InvocationTelemetry,
): ComposedApp {
  const config = loadConfig(env);
  const missing = [
    ...(config.endpoint === undefined ? ['MCP_ENDPOINT is required by the BOS platform'] : []),
    ...(config.auth === undefined
      ? ['AUTH_ISSUER, AUTH_AUDIENCE and AUTH_JWKS_URL are required by the BOS platform']
      : []),
  ];
  if (config.endpoint === undefined || config.auth === undefined) throw new ConfigError(missing);
  // Where the function runs is decided once, here; every local-only behaviour reads this.
  const knobs = localKnobs(config, env, logger);
  // A real deployment must never trust the local dev issuer; the local stack is exempt.
  assertDeployableAuth(config, knobs.local);

  // The directory and the source definitions both live in BOS_DIRECTORY_TABLE (one shared client).
  const items = composeDirectoryItems(config);
  // Cached sources read their baseline on BOS_BASELINE_TABLE first (docs/bos.md "Reading a cached source").
  const baselines =
    config.baselineTable === undefined ? undefined : composeBaselineStore(config, config.baselineTable);
  const sources = composeSources(config, env, logger, {
    knobs,
    ...(items === undefined ? {} : { items }),
    ...(baselines === undefined ? {} : { cache: { store: baselines, feedFor: changeFeedFor } }),
    ...(telemetry === undefined
      ? {}
      : {
          onRateLimitWait: (id, ms) => telemetry.rateLimitWait(id, ms),
          onLocalMatch: (id) => telemetry.localMatch(id),
        }),
  });
  telemetry?.setSourceKinds((id) => sources.kindOf(id));
  const verifier = createJwtVerifier({
    issuer: config.auth.issuer,
    audience: config.auth.audience,
    jwks: config.auth.jwksUrl,
    fetchKeySet: boundedKeySetFetch(),
    requiredScope: BOS_READ_SCOPE,
    tenantClaim: config.auth.tenantClaim,
  });
  const platform = createBosPlatform({
    // BOS_DIRECTORY_TABLE when set (grants re-read on every call), else the embedded demo directory.
    directory: composeDirectory(config, items),
    sources: sources.sources,
    // Table-backed source definitions are re-read once older than their TTL (docs/bos.md "Wiring").
    refreshSources: () => sources.refresh(),
    verifier,
    endpoint: config.endpoint.toString(),
    deadlineReserveMs: config.deadlineReserveMs,
    operationTimeoutMs: config.operationTimeoutMs,
    ...(config.contractUri === undefined ? {} : { contractUri: config.contractUri }),
    logger,
    ...(telemetry === undefined ? {} : { telemetry: operationTelemetry(telemetry) }),
    serverOptions: {
      name: 'bos-platform',
      version: '0.1.0',
      ...composeStores(config),
      ...composeRateLimit(config, telemetry),
      maxStreamEventBytes: config.maxStreamEventBytes,
      allowedOrigins: config.allowedOrigins,
      ...(config.listenerBudget === undefined ? {} : { initialSessionListenerBudget: config.listenerBudget }),
      logger,
      ...(telemetry === undefined ? {} : { callTelemetry: telemetry.calls, telemetry: telemetry.tools }),
    },
  });
  const consoleAssets = createConsoleAssets({ authOrigin: new URL(config.auth.issuer).origin });
  const syncCache = composeCacheSync(config, sources, logger, {
    ...(baselines === undefined ? {} : { store: baselines }),
    ...(telemetry === undefined
      ? {}
      : {
          onOutcome: (outcome) =>
            telemetry.cacheSynced({
              ...outcome,
              sourceType: sources.kindOf(outcome.sourceId) ?? 'unknown',
              ...(sources.specOf(outcome.sourceId)?.cache === undefined
                ? {}
                : { maxStalenessMs: sources.specOf(outcome.sourceId)!.cache!.maxStalenessMs }),
            }),
        }),
  });
  return {
    handle: (request, ctx) => {
      const path = new URL(request.url).pathname;
      return servesConsolePath(path) ? consoleAssets.handle(request, path) : platform.handle(request, ctx);
    },
    origin: config.endpoint.origin,
    settled: () => platform.server.settled(),
    runTask: (ref, round) => platform.server.runTask(ref, round),
    ...(syncCache === undefined ? {} : { syncCache }),
    responseStallMs: config.responseStallMs,
    prepare: () => {
      // Every request's token check needs the issuer's keys: fetching them now overlaps the wait (deployed:
      // DNS, TLS and the issuer's answer) with the rest of the cold start, for no extra work. A failure
      // changes nothing: a request that finds it in flight waits for it and, if it failed, fetches again
      // itself with a full timeout (jwt-verifier.ts).
      verifier.prepare?.().catch((error: unknown) => {
        logger.warn('cold-start JWKS prefetch failed; the first request fetches again', errorFields(error));
      });
    },
  };
}
