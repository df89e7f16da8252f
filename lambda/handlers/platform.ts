/**
 * Lambda entry of the platform endpoint `/mcp/apps/bos/platform`: the BOS platform app (DESIGN §5) behind
 * the REST v1 streaming entry (`compose-entry.ts`), plus the RFC 9728 metadata routes. Composition
 * (`compose-platform.ts`): config -> stores -> token verifier -> directory -> its sources -> platform.
 */
import { createRestEntry } from './compose-entry.js';
import { composePlatform, servesPlatformPath } from './compose-platform.js';

/** Lambda sets `AWS_LAMBDA_RUNTIME_API`, and so do the local stack's runtime processes. */
const inLambdaRuntime = process.env['AWS_LAMBDA_RUNTIME_API'] !== undefined;

/**
 * The deployed handler. Inside a Lambda runtime the platform is composed during init and starts fetching the
 * issuer's keys at once; imported anywhere else (tests, tools) the module does no work.
 */
export const handler = createRestEntry({
  component: 'platform',
  serves: servesPlatformPath,
  compose: (logger, telemetry) => composePlatform(process.env, logger, telemetry),
  prepareAtInit: inLambdaRuntime,
});
