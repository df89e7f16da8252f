/**
 * Lambda entry of the platform endpoint `/mcp/apps/bos/platform`: the BOS platform app (DESIGN §5) behind
 * the REST v1 streaming entry (`compose-entry.ts`), plus the RFC 9728 metadata routes. Composition
 * (`compose-platform.ts`): config -> stores -> token verifier -> directory -> its sources -> platform.
 */
import { createRestEntry } from './compose-entry.js';
import { composePlatform, servesPlatformPath } from './compose-platform.js';

/** The deployed handler. */
export const handler = createRestEntry({
  component: 'platform',
  serves: servesPlatformPath,
  compose: (logger) => composePlatform(process.env, logger),
});
