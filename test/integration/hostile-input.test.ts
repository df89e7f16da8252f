/**
 * Hostile requests through `npm start`'s stack (the REST v1 front, the bundled platform under the runtime
 * client, DynamoDB Local, the dev issuer): prototype-named query and header names, duplicate headers, a
 * multi-megabyte binary body, invalid UTF-8 and path tricks, each with the exact status and JSON-RPC code.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { type LocalStack, startStack } from '../../local/stack.js';
import { javaSuite } from '../helpers/java.js';

const PATH = '/mcp/apps/bos/platform';

interface Raw {
  status: number;
  body: string;
  code: number | undefined;
}

describe('hostile requests through the local stack', javaSuite(180_000), () => {
  let stack: LocalStack;
  let port: number;

  before(async () => {
    stack = await startStack({
      bundleDir: '.local/test-bundles/hostile-input',
      poolSize: 1,
      concurrency: 2,
      onFunctionLog: () => undefined,
    });
    port = stack.port;
  });
  after(async () => {
    await stack?.close();
  });

  /** One request with the path exactly as given (no client-side normalisation). */
  async function send(path: string, body: Buffer | string, headers: [string, string][] = []): Promise<Raw> {
    // One request at a time: the previous one, and the completion invocation that follows a stream, must have
    // left the function, or a request could meet the concurrency of two (throttling is not tested here).
    while (stack.pool.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const all: string[] = [];
    const base: [string, string][] = [
      ['Content-Type', 'application/json'],
      ['Accept', 'application/json, text/event-stream'],
      ['Authorization', stack.clientHeaders.Authorization ?? ''],
    ];
    for (const [name, value] of [...base.filter(([n]) => !headers.some(([h]) => h === n)), ...headers])
      all.push(name, value);
    // A raw header list gets neither Host nor framing from Node.
    all.push('Host', `127.0.0.1:${port}`, 'Content-Length', String(Buffer.byteLength(body)));
    return await new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path, method: 'POST', headers: all, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let code: number | undefined;
            try {
              code = (JSON.parse(text) as { error?: { code?: number } }).error?.code;
            } catch {
              code = undefined;
            }
            resolve({ status: res.statusCode ?? 0, body: text, code });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'h', version: '1' } },
  });
  const discover = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover' });

  it('query parameters named __proto__, constructor, toString, hasOwnProperty → 200', async () => {
    const answer = await send(
      `${PATH}?__proto__=1&constructor=2&toString=3&hasOwnProperty=4&constructor=5`,
      initialize,
    );
    assert.equal(answer.status, 200, answer.body);
    assert.equal(answer.code, undefined);
  });

  it('headers named like Object.prototype members, sent twice in two spellings → 200', async () => {
    const answer = await send(PATH, discover, [
      ['constructor', 'a'],
      ['Constructor', 'b'],
      ['__proto__', 'c'],
      ['toString', 'd'],
      ['hasOwnProperty', 'e'],
    ]);
    assert.equal(answer.status, 200, answer.body);
  });

  it('a 3.5 MB application/octet-stream body → 400 -32600, not 500', async () => {
    const answer = await send(PATH, Buffer.alloc(3_500_000, 0x41), [
      ['Content-Type', 'application/octet-stream'],
    ]);
    assert.deepEqual([answer.status, answer.code], [400, -32600], answer.body.slice(0, 200));
  });

  it('invalid UTF-8 inside a JSON string → 200 -32700', async () => {
    const body = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"x":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}}'),
    ]);
    const answer = await send(PATH, body);
    assert.deepEqual([answer.status, answer.code], [200, -32700], answer.body);
  });

  it('path tricks match no resource: API Gateway’s 403 Missing Authentication Token', async () => {
    for (const path of [`//evil.example${PATH}`, `/x/..${PATH}`, `${PATH}/..`]) {
      const answer = await send(path, discover);
      assert.equal(answer.status, 403, `${path}: ${answer.body}`);
      assert.equal(answer.body, '{"message":"Missing Authentication Token"}');
    }
  });

  it('two different MCP-Protocol-Version values → 400 -32020', async () => {
    const answer = await send(PATH, discover, [
      ['MCP-Protocol-Version', '2026-07-28'],
      ['MCP-Protocol-Version', '2025-11-25'],
    ]);
    assert.deepEqual([answer.status, answer.code], [400, -32020], answer.body);
  });
});
