/** Source adapters implementing the federation engine's SourceAdapter port. */
export {
  DEMO_SOURCE_OPTIONS,
  FIXTURE_PRESET_NAMES,
  applyQuery,
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
export { foldForMatch, matchRecords } from './kernel/index.js';
export type { ProviderLogEntry, ProviderSettings } from './kernel/index.js';
export { createLdapSourceFactory, LDAP_ADAPTER } from './ldap/index.js';
export { createScimSourceFactory, SCIM_ADAPTER } from './scim/index.js';
export { createEntraSourceFactory, ENTRA_ADAPTER } from './entra/index.js';
export { createOktaSourceFactory, OKTA_ADAPTER } from './okta/index.js';
export { createHttpJsonSourceFactory, HTTP_JSON_ADAPTER } from './http-json/index.js';
export { ClientCredentialsBroker } from './oauth/index.js';
export type { BrokerToken, ClientCredentialsOptions } from './oauth/index.js';
