/** Source adapters implementing the federation engine's SourceAdapter port. */
export {
  DEMO_SOURCE_OPTIONS,
  FIXTURE_PRESET_NAMES,
  createDemoSources,
  createFixtureSource,
  createFixtureSourceFactory,
  FIXTURE_ADAPTER,
  fixtureOptionsFromDefinition,
  fixturePreset,
  fixtureRecords,
  hashString,
  isFixturePresetName,
  mulberry32,
  poolBase,
  poolPerson,
  POOL_RANGE,
  sample,
  scaleLatency,
  sleep,
  traceSource,
} from './fixture/index.js';
export type {
  FixtureFailure,
  FixtureOverlap,
  FixturePresetName,
  FixtureSourceDeps,
  FixtureSourceFactoryOptions,
  FixtureSourceOptions,
  PoolPerson,
  Random,
  SourceTraceEvent,
} from './fixture/index.js';
export { buildSource, createSourceCatalog, SourceConfigError, unavailableSource } from './registry/index.js';
export type {
  ProviderCredential,
  SourceCatalog,
  SourceCatalogOptions,
  SourceFactories,
  SourceFactory,
  SourceSpec,
  UnreadableSource,
} from './registry/index.js';
export { createSourceFactories } from './factories.js';
export { createCachedSource, usableBaselineAt } from './cache/cached-source.js';
export type { CachedSourceOptions } from './cache/cached-source.js';
export { kindMatchFor } from './cache/feeds.js';
export type { KindMatch } from './cache/feeds.js';
export { WatermarkExpiredError } from './cache/port.js';
export type {
  BaselineLookup,
  BaselineRecord,
  BaselineState,
  BaselineStatus,
  BaselineStore,
  ChangeBatch,
  ChangeFeed,
  SourceCachePolicy,
  SyncLease,
} from './cache/port.js';
export { foldForMatch, matchRecords } from './kernel/local-match.js';
export type { ProviderLogEntry, ProviderSettings } from './kernel/index.js';
// The one bounded-body HTTP exchange, also the composition root's for the issuer's key set.
export { sendHttp } from './kernel/http-transport.js';
// The kinds' factories and names come from their light modules (options reading only): an adapter's read
// path is loaded by `import()` on its first read (`registry/deferred.ts`), so it must not be reachable from
// here by a static import (docs/performance.md "Cold start").
export { createLdapSourceFactory } from './ldap/factory.js';
export { LDAP_ADAPTER } from './ldap/options.js';
export { createScimSourceFactory } from './scim/factory.js';
export { SCIM_ADAPTER } from './scim/options.js';
export { createEntraSourceFactory } from './entra/factory.js';
export { ENTRA_ADAPTER } from './entra/options.js';
export { createOktaSourceFactory } from './okta/factory.js';
export { OKTA_ADAPTER } from './okta/options.js';
export { createHttpJsonSourceFactory } from './http-json/factory.js';
export { HTTP_JSON_ADAPTER } from './http-json/definition.js';
