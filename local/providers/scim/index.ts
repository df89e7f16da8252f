/** The local SCIM 2.0 server (scimmy + scimmy-routers on express 4). */
export { startScimServer } from './server.js';
export type { ScimServer, ScimServerOptions } from './server.js';
export type { ScimBehaviour, ScimRequestRecord } from './behaviour.js';
export { FULL_PROFILE } from './profile.js';
export type { ScimProfile } from './profile.js';
