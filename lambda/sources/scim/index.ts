/** The `scim` adapter kind: SCIM 2.0 `/Users` through the provider kernel (docs/sources.md). */
export { scimFilterFor, SEARCH_ATTRIBUTES } from './filters.js';
export { SCIM_ADAPTER, scimOptionsFromSpec } from './options.js';
export type { ScimSourceOptions } from './options.js';
export { createScimSourceFactory } from './factory.js';
export { createScimSource } from './scim-source.js';
export { parseServiceProviderConfig } from './service-provider-config.js';
export type { ScimCapabilities } from './service-provider-config.js';
export { scimUserMapper } from './user-record.js';
