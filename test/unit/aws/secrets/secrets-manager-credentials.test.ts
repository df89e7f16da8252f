/**
 * SecretsManagerCredentialResolver with the real AWS SDK client against a Secrets Manager stand-in on
 * 127.0.0.1 that speaks the service's JSON 1.1 protocol (`X-Amz-Target: secretsmanager.GetSecretValue`).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SecretsManagerCredentialResolver } from '../../../../lambda/aws/index.js';

const SECRET = 'prov1der-t0ken-7e2a9c';
const secrets = new Map([['bos/sources/ACME_HR', SECRET]]);
const requests: { target: string | undefined; secretId: unknown }[] = [];
let endpoint = '';

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    const { SecretId } = JSON.parse(body) as { SecretId?: string };
    requests.push({ target: req.headers['x-amz-target'] as string | undefined, secretId: SecretId });
    const value = SecretId === undefined ? undefined : secrets.get(SecretId);
    const headers = { 'content-type': 'application/x-amz-json-1.1' };
    if (SecretId === 'bos/sources/BROKEN') {
      res.writeHead(500, headers).end(JSON.stringify({ __type: 'InternalServiceError', message: 'boom' }));
    } else if (value === undefined) {
      res
        .writeHead(400, headers)
        .end(
          JSON.stringify({ __type: 'ResourceNotFoundException', message: "Secrets Manager can't find it." }),
        );
    } else {
      res.writeHead(200, headers).end(JSON.stringify({ ARN: 'arn:x', Name: SecretId, SecretString: value }));
    }
  });
});

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

function resolver(clock = Date.now): SecretsManagerCredentialResolver {
  const client = new SecretsManagerClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  return new SecretsManagerCredentialResolver({ client, cacheTtlMs: 60_000, clock });
}

describe('Secrets Manager credential resolver', () => {
  it('reads <prefix><NAME> with GetSecretValue and caches the value for its TTL', async () => {
    let now = 0;
    const credentials = resolver(() => now);
    const before = requests.length;
    assert.equal(await credentials.resolve('ACME_HR'), SECRET);
    assert.equal(await credentials.resolve('ACME_HR'), SECRET);
    assert.deepEqual(requests.slice(before), [
      { target: 'secretsmanager.GetSecretValue', secretId: 'bos/sources/ACME_HR' },
    ]);
    now = 60_000;
    await credentials.resolve('ACME_HR');
    assert.equal(requests.length, before + 2);
  });

  it('reports a missing secret and an outage by reference name only', async () => {
    const credentials = resolver();
    await assert.rejects(credentials.resolve('ACME_CRM'), {
      name: 'CredentialUnavailableError',
      code: 'unknown_credential',
      message: 'credential ACME_CRM does not exist',
    });
    await assert.rejects(credentials.resolve('BROKEN'), {
      code: 'unavailable',
      message: 'credential BROKEN could not be read',
    });
  });

  it('refuses a reference that is not a name without calling AWS', async () => {
    const before = requests.length;
    await assert.rejects(resolver().resolve('../other-team/secret'), { code: 'invalid_reference' });
    assert.equal(requests.length, before);
  });
});
