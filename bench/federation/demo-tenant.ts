/**
 * (a) The demo directory as `npm start` serves it: the deployed platform handler
 * (`lambda/handlers/platform.ts`), composed from the environment the local stack gives its runtimes, in this
 * process. Two differences from `npm start`, both outside the measured work's shape: the directory is the
 * embedded demo document in memory (the local stack seeds the same document into DynamoDB Local, so a call
 * there also waits for two `GetItem`s), and the response goes to an in-process reader instead of the local
 * REST front. Token verification is real: the local dev issuer serves its JWKS over HTTP.
 */
import { randomBytes } from 'node:crypto';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import { startDevIssuer } from '../../local/dev-auth/index.js';
import type { StreamingHandler } from './lambda-host.js';

/** The local stack's endpoint URL with its default port; calls never reach it (they run in-process). */
const ENDPOINT = 'http://127.0.0.1:3000/mcp/apps/bos/platform';

/** The README's flagship call: `search_people {"query":"a"}` in the demo People context. */
export const DEMO_CALL = {
  contextHandle: DEMO_PEOPLE_CONTEXT_HANDLE,
  operation: 'search_people',
  arguments: { query: 'a' },
} as const;

/** The demo handler and a token of `dev-user`; `close()` stops the issuer. */
export interface DemoTenant {
  handler: StreamingHandler;
  token: string;
  close(): Promise<void>;
}

/**
 * Sets the function's environment as the local stack does (no directory table: the embedded demo
 * directory), then loads the handler module. `AWS_LAMBDA_RUNTIME_API` makes the module compose the
 * platform at load, as it does in a Lambda runtime. Call once per process, after `installLambdaGlobal`.
 */
export async function startDemoTenant(): Promise<DemoTenant> {
  const issuer = await startDevIssuer({ audience: ENDPOINT });
  Object.assign(process.env, {
    AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001',
    MCP_ENDPOINT: ENDPOINT,
    BOS_DEADLINE_RESERVE_MS: '1000',
    AUTH_ISSUER: issuer.issuer,
    AUTH_AUDIENCE: issuer.audience,
    AUTH_JWKS_URL: issuer.jwksUrl,
    // The demo's `acme-crm` needs a credential; the local stack makes a random one on every start.
    BOS_SECRET_ACME_CRM_TOKEN: randomBytes(32).toString('base64url'),
  });
  const { handler } = await import('../../lambda/handlers/platform.js');
  return {
    handler: handler as unknown as StreamingHandler,
    token: issuer.tokens['dev-user'],
    close: () => issuer.close(),
  };
}
