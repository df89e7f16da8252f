/** The `scim` adapter kind: SCIM 2.0 `/Users` through the provider kernel (docs/sources.md). */
export { FILTER_OPTIONS, forgetLearnedFilters } from './filter-plan.js';
export type { FilterOption } from './filter-plan.js';
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
export { createScimSource, createScimSourceFactory } from './scim-source.js';
export { DEFAULT_CAPABILITIES, parseServiceProviderConfig } from './service-provider-config.js';
export type { ScimCapabilities } from './service-provider-config.js';
export { lowerKeys } from './scim-json.js';
export { scimUserMapper } from './user-record.js';
