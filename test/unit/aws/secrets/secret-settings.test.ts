/**
 * Secret-backed settings (`MCP_REQUEST_STATE_SECRET_ARN`) read with the real AWS SDK client from a Secrets
 * Manager stand-in on 127.0.0.1 that speaks the service's JSON 1.1 protocol.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ConfigError, loadConfig, resolveSecretSettings } from '../../../../lambda/aws/index.js';

const ARN = 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:bos/request-state-AbCdEf';
const KEY = 'k'.repeat(20) + 'shared-request-state-key-7f3a';
const secrets = new Map([
  [ARN, KEY],
  ['bos/empty', ''],
]);
const reads: unknown[] = [];
let endpoint = '';

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    const { SecretId } = JSON.parse(body) as { SecretId?: string };
    reads.push(SecretId);
    const headers = { 'content-type': 'application/x-amz-json-1.1' };
    const value = SecretId === undefined ? undefined : secrets.get(SecretId);
    if (SecretId === 'bos/denied') {
      res
        .writeHead(400, headers)
        .end(
          JSON.stringify({ __type: 'AccessDeniedException', message: `User arn:aws:iam::1:role/x ${KEY}` }),
        );
    } else if (value === undefined) {
      res.writeHead(400, headers).end(JSON.stringify({ __type: 'ResourceNotFoundException', message: 'no' }));
    } else {
      res.writeHead(200, headers).end(JSON.stringify({ ARN: SecretId, SecretString: value }));
    }
  });
});

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (): SecretsManagerClient =>
  new SecretsManagerClient({
    endpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });

async function problemsOf(env: Record<string, string>): Promise<readonly string[]> {
  const error = await resolveSecretSettings(env, { client: client() }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ConfigError, 'expected a ConfigError');
  assert.doesNotMatch(error.message, new RegExp(KEY), 'a secret value reached an error message');
  return error.problems;
}

describe('secret-backed settings', () => {
  it('reads MCP_REQUEST_STATE_SECRET from the secret its ARN names, into a copy of the environment', async () => {
    const env = { MCP_REQUEST_STATE_SECRET_ARN: ARN, OTHER: 'kept' };
    const resolved = await resolveSecretSettings(env, { client: client() });
    assert.equal(resolved.MCP_REQUEST_STATE_SECRET, KEY);
    assert.equal(resolved.OTHER, 'kept');
    assert.equal('MCP_REQUEST_STATE_SECRET' in env, false, 'the given environment was written');
    assert.equal(loadConfig(resolved).requestStateSecret, KEY);
  });

  it('returns the environment untouched, with no Secrets Manager call, when no ARN is set', async () => {
    const before = reads.length;
    const env = { MCP_REQUEST_STATE_SECRET: 'x'.repeat(32) };
    assert.equal(await resolveSecretSettings(env, { client: client() }), env);
    assert.equal(reads.length, before);
  });

  it('names the variable and the service error, never the value, when the secret cannot be read', async () => {
    assert.deepEqual(await problemsOf({ MCP_REQUEST_STATE_SECRET_ARN: 'bos/denied' }), [
      'the secret MCP_REQUEST_STATE_SECRET_ARN names could not be read (AccessDeniedException)',
    ]);
    assert.deepEqual(await problemsOf({ MCP_REQUEST_STATE_SECRET_ARN: 'bos/missing' }), [
      'the secret MCP_REQUEST_STATE_SECRET_ARN names could not be read (ResourceNotFoundException)',
    ]);
    assert.deepEqual(await problemsOf({ MCP_REQUEST_STATE_SECRET_ARN: 'bos/empty' }), [
      'the secret MCP_REQUEST_STATE_SECRET_ARN names has no string value',
    ]);
  });

  it('refuses a setting given both as a value and as a secret, and an id that is no secret id', async () => {
    assert.deepEqual(
      await problemsOf({ MCP_REQUEST_STATE_SECRET_ARN: ARN, MCP_REQUEST_STATE_SECRET: 'y'.repeat(32) }),
      [
        'MCP_REQUEST_STATE_SECRET and MCP_REQUEST_STATE_SECRET_ARN are both set; set only MCP_REQUEST_STATE_SECRET_ARN',
      ],
    );
    assert.deepEqual(await problemsOf({ MCP_REQUEST_STATE_SECRET_ARN: 'not a secret id!' }), [
      'MCP_REQUEST_STATE_SECRET_ARN must be a Secrets Manager secret ARN or name',
    ]);
  });

  it('makes loadConfig refuse an ARN whose secret was never read instead of drawing a random key', () => {
    assert.throws(
      () => loadConfig({ MCP_REQUEST_STATE_SECRET_ARN: ARN }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(error.problems, ['MCP_REQUEST_STATE_SECRET_ARN is set but its secret was not read']);
        return true;
      },
    );
  });
});
