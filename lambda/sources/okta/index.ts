/** The `okta` adapter kind: Okta users through the Users API with an OAuth service app (docs/sources.md). */
export { createOktaSourceFactory } from './factory.js';
export { createOktaSource } from './okta-source.js';
export { OKTA_ADAPTER, OKTA_MAX_LIMIT, OKTA_USERS_SCOPE, oktaOptionsFromSpec } from './options.js';
export type { OktaSourceOptions } from './options.js';
export { ALL_USERS_FILTER, oktaParamsFor, oktaRecordMatch, oktaSearchFor, searchString } from './search.js';
export type { OktaListParams } from './search.js';
export { oktaUserMapper } from './user-record.js';
