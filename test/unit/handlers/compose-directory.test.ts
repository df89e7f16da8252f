import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../lambda/aws/index.js';
import { DynamoDbDirectoryItems, SecretsManagerCredentialResolver } from '../../../lambda/aws/index.js';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../../lambda/bos/index.js';
import {
  assertDeployableAuth,
  composeCredentialResolver,
  composeDirectory,
  composeDirectoryItems,
} from '../../../lambda/handlers/compose-directory.js';
import { isLocalRun } from '../../../lambda/handlers/compose-fixture-knobs.js';

const DEPLOYED = {
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
  AWS_REGION: 'eu-west-1',
  MCP_ENDPOINT: 'https://api.example.com/prod/mcp/apps/bos/platform',
  MCP_SESSION_TABLE: 'sessions',
  AUTH_ISSUER: 'https://login.example.com',
  AUTH_AUDIENCE: 'https://api.example.com/prod/mcp/apps/bos/platform',
  AUTH_JWKS_URL: 'https://login.example.com/.well-known/jwks.json',
};

describe('directory composition', () => {
  it('serves the embedded demo directory when no table is configured', async () => {
    const config = loadConfig({});
    assert.equal(composeDirectoryItems(config), undefined);
    const found = await composeDirectory(config).find(
      { subject: 'dev-user', scopes: ['bos.read'] },
      DEMO_PEOPLE_CONTEXT_HANDLE,
    );
    assert.equal(found?.context.organization_name, 'Acme Corp');
  });

  it('reads BOS_DIRECTORY_TABLE through DynamoDB when configured', () => {
    const items = composeDirectoryItems(loadConfig({ ...DEPLOYED, BOS_DIRECTORY_TABLE: 'directory' }));
    assert.ok(items instanceof DynamoDbDirectoryItems);
  });

  it('resolves credentials from Secrets Manager deployed and from BOS_SECRET_* locally', async () => {
    assert.ok(
      composeCredentialResolver(isLocalRun(loadConfig(DEPLOYED)), {}) instanceof
        SecretsManagerCredentialResolver,
    );
    const local = composeCredentialResolver(isLocalRun(loadConfig({})), { BOS_SECRET_ACME_HR: 'v' });
    assert.equal(await local.resolve('ACME_HR'), 'v');
  });

  it('refuses a deployment that trusts the dev issuer, but not the local stack', () => {
    assert.doesNotThrow(() => assertDeployableAuth(loadConfig(DEPLOYED), isLocalRun(loadConfig(DEPLOYED))));
    const devIssuer = {
      ...DEPLOYED,
      AUTH_ISSUER: 'http://127.0.0.1:41234',
      AUTH_JWKS_URL: 'http://127.0.0.1:41234/.well-known/jwks.json',
    };
    assert.throws(() => assertDeployableAuth(loadConfig(devIssuer), isLocalRun(loadConfig(devIssuer))), {
      name: 'BosConfigError',
    });
    const localStack = {
      ...devIssuer,
      MCP_ENDPOINT: 'http://127.0.0.1:3000/mcp/apps/bos/platform',
      AUTH_AUDIENCE: 'http://127.0.0.1:3000/mcp/apps/bos/platform',
    };
    assert.doesNotThrow(() =>
      assertDeployableAuth(loadConfig(localStack), isLocalRun(loadConfig(localStack))),
    );
  });
});
