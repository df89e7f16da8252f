export { createDevAuth, DEV_SUBJECTS } from './issuer.js';
export type { DevAuth, DevAuthOptions, DevSubject } from './issuer.js';
export { startDevIssuer } from './server.js';
export type { RunningDevIssuer } from './server.js';
export { authorizationServerMetadata, DEV_AUTH_PATHS } from './metadata.js';
export type { AuthorizationServerMetadata } from './metadata.js';
export { s256Challenge } from './pkce.js';
export type { RegisteredClient } from './registration.js';
export type { TokenResponse } from './token.js';
