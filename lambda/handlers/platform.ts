/**
 * Lambda entry of the platform endpoint `/mcp/apps/bos/platform`: the BOS platform app (DESIGN §5) behind
 * the REST v1 streaming entry (`compose-entry.ts`), plus the RFC 9728 metadata routes. Composition
 * (`compose-platform.ts`): config -> stores -> token verifier -> directory -> its sources -> platform.
 */
import { resolveSecretSettings } from '../aws/index.js';
import { createRestEntry } from './compose-entry.js';
import { composePlatform, servesPlatformPath } from './compose-platform.js';

/** Lambda sets `AWS_LAMBDA_RUNTIME_API`, and so do the local stack's runtime processes. */
const inLambdaRuntime = process.env['AWS_LAMBDA_RUNTIME_API'] !== undefined;

/**
 * Settings held in Secrets Manager (`MCP_REQUEST_STATE_SECRET_ARN`), read during init. A secret that cannot
 * be read fails the init: Lambda then reports the error and initializes afresh on the next invocation, where
 * running on with a per-environment key would refuse multi-round retries without saying why. The error
 * carries the problem list only, no stack (the runtime logs what an init error carries).
 */
const environment = inLambdaRuntime
  ? await resolveSecretSettings(process.env).catch((error: unknown) => {
      if (error instanceof Error) error.stack = `${error.name}: ${error.message}`;
      throw error;
    })
  : process.env;

/**
 * The deployed handler. Inside a Lambda runtime the platform is composed during init and starts fetching the
 * issuer's keys at once; imported anywhere else (tests, tools) the module does no work.
 */
export const handler = createRestEntry({
  component: 'platform',
  serves: servesPlatformPath,
  compose: (logger, telemetry) => composePlatform(environment, logger, telemetry),
  prepareAtInit: inLambdaRuntime,
});
