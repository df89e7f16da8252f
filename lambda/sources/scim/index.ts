/** The `scim` adapter kind: SCIM 2.0 `/Users` through the provider kernel (docs/sources.md). */
export { forgetLearnedFilters } from './filter-plan.js';
export { FILTER_OPTIONS } from './options.js';
export type { FilterOption } from './options.js';
export {
  containsFilter,
  exactFilters,
  isWholeEmail,
  scimFilterFor,
  SEARCH_ATTRIBUTES,
  sinceFilter,
} from './filters.js';
export { SCIM_ADAPTER, scimOptionsFromSpec } from './options.js';
export type { ScimSourceOptions } from './options.js';
export { createScimSourceFactory } from './factory.js';
export { createScimSource } from './scim-source.js';
export { DEFAULT_CAPABILITIES, parseServiceProviderConfig } from './service-provider-config.js';
export type { ScimCapabilities } from './service-provider-config.js';
export { at as scimAttribute, lowerKeys } from './scim-json.js';
export { scimUserMapper } from './user-record.js';
