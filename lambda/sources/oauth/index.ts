/** The OAuth 2.0 client-credentials broker that real sources use to get their access tokens. */
export { ClientCredentialsBroker } from './broker.js';
export type { BrokerToken } from './broker.js';
export { fetchTokenTransport } from './token-transport.js';
export type { TokenExchange, TokenResponse, TokenTransport } from './token-transport.js';
export { ASSERTION_LIFETIME_S, ClientCredentialError } from './client-auth.js';
export {
  ASSERTION_ALGORITHMS,
  CLIENT_AUTH_METHODS,
  parseClientCredentialsOptions,
  providerUrl,
} from './options.js';
export type {
  AssertionAlgorithm,
  BrokerOptions,
  ClientAuthMethod,
  ClientCredentialsOptions,
} from './options.js';
export { tokenForRead } from './read-token.js';
