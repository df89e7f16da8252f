/**
 * The deployed path of the request-state key through the real runtime client: the platform entry, given
 * only `MCP_REQUEST_STATE_SECRET_ARN`, reads the secret during init from a Secrets Manager stand-in on
 * 127.0.0.1 (the SDK's `AWS_ENDPOINT_URL_SECRETS_MANAGER`), once per execution environment, before any
 * request; a secret it may not read fails the init with a one-line reason and no stack trace.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { RuntimePoolStartError } from '../../local/runtime-api/index.js';
import { startStack } from '../../local/stack.js';
import type { LocalStack } from '../../local/stack.js';
import { openSession } from '../helpers/bos-stack.js';
import { javaSuite } from '../helpers/java.js';

const GOOD = 'arn:aws:secretsmanager:us-east-1:111122223333:secret:bos/request-state-AbCdEf';
const DENIED = 'arn:aws:secretsmanager:us-east-1:111122223333:secret:bos/denied-AbCdEf';
const KEY = 'Q7'.repeat(32);
const reads: Array<{ id: unknown; at: number }> = [];

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    const { SecretId } = JSON.parse(body) as { SecretId?: string };
    reads.push({ id: SecretId, at: Date.now() });
    const headers = { 'content-type': 'application/x-amz-json-1.1' };
    if (SecretId === GOOD) res.writeHead(200, headers).end(JSON.stringify({ ARN: GOOD, SecretString: KEY }));
    else res.writeHead(400, headers).end(JSON.stringify({ __type: 'AccessDeniedException', message: 'no' }));
  });
});
let endpoint = '';

/** The function environment that makes the entry read the key from the stand-in. */
const secretEnv = (arn: string): Record<string, string> => ({
  MCP_REQUEST_STATE_SECRET_ARN: arn,
  // The local stack's own shared key; empty counts as unset, so only the secret provides one.
  MCP_REQUEST_STATE_SECRET: '',
  AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoint,
});

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the request-state key from Secrets Manager, through the runtime client', javaSuite(600_000), () => {
  let stack: LocalStack | undefined;
  after(async () => {
    await stack?.close();
  });

  it('is read once per environment during init, and the platform then serves requests', async () => {
    const before = reads.length;
    stack = await startStack({
      bundleDir: '.local/test-bundles/request-state-secret',
      poolSize: 2,
      timeoutSeconds: 60,
      env: secretEnv(GOOD),
      onFunctionLog: () => {},
    });
    const startedAt = Date.now();
    const atInit = reads.slice(before);
    assert.equal(atInit.length, 2, 'one read per warm environment');
    assert.ok(atInit.every((read) => read.id === GOOD && read.at <= startedAt));
    const token = stack.devTokens?.['dev-user'];
    assert.ok(token);
    const { sessionId } = await openSession(stack.url, token);
    assert.ok(sessionId);
    assert.equal(reads.length, before + 2, 'a request reads no secret');
  });

  it('fails the init with the variable and the service error, no value and no stack trace', async () => {
    const lines: string[] = [];
    const starting = startStack({
      bundleDir: '.local/test-bundles/request-state-secret',
      poolSize: 1,
      timeoutSeconds: 60,
      env: secretEnv(DENIED),
      onFunctionLog: (entry) => lines.push(entry.line),
    });
    await assert.rejects(starting, (error: unknown) => {
      assert.ok(error instanceof RuntimePoolStartError);
      assert.match(
        error.message,
        /the secret MCP_REQUEST_STATE_SECRET_ARN names could not be read \(AccessDeniedException\)/,
      );
      return true;
    });
    const output = lines.join('\n');
    assert.match(output, /AccessDeniedException/);
    assert.doesNotMatch(output, /\n\s+at .+:\d+:\d+/, 'a stack trace reached the log');
  });
});
