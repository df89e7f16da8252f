/**
 * Local development auth (the issuer `npm start` runs): see `local/dev-auth/`. This file keeps the
 * historical import path `local/dev-auth.js` working for the stack and the tests.
 */
export * from './dev-auth/index.js';
