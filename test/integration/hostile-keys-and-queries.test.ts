/**
 * Hostile keys and query text through `npm start`'s stack with its providers (REST v1 front, the bundled
 * platform, DynamoDB Local, the SCIM server and slapd): keys DynamoDB would refuse are answered as unknown
 * (never 503 or 500), search text with a NUL and an impossible instant are -32602 (never a widened search of
 * slapd or the SCIM server), and none of it writes a warning or error line, or DynamoDB's own text, to the log.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import { javaSuite } from '../helpers/java.js';
import {
  OPT_IN_KEY,
  openSession,
  post,
  postStateless,
  startBosStack,
  statelessMeta,
  toolCall,
} from '../helpers/bos-stack.js';
import type { BosStack } from '../helpers/bos-stack.js';

const TASKS = 'io.modelcontextprotocol/tasks';

describe('hostile keys and query text on the local stack', javaSuite(400_000), () => {
  let bos: BosStack;
  let token: string;
  let sessionId: string;

  before(async () => {
    bos = await startBosStack({ name: 'hostile-keys', poolSize: 1, providers: true });
    token = bos.token('dev-user');
    ({ sessionId } = await openSession(bos.url, token, { tasks: {} }));
  });
  after(async () => {
    await bos?.close();
  });

  const answer = async (response: Response) => {
    const text = await response.text();
    let code: number | undefined;
    try {
      code = (JSON.parse(text) as { error?: { code?: number } }).error?.code;
    } catch {
      code = undefined;
    }
    return { status: response.status, code, text };
  };

  it('a 1,025-character taskId → 200 -32602 unknown task in the 2025-11-25 shape, not 503', async () => {
    const taskId = 't'.repeat(1025);
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const got = await answer(
        await post(bos.url, {
          token,
          sessionId,
          body: { jsonrpc: '2.0', id: 1, method, params: { taskId } },
        }),
      );
      assert.deepEqual([got.status, got.code], [200, -32602], `${method}: ${got.text}`);
      assert.match(got.text, /unknown or expired taskId/);
    }
  });

  it('a 1,025-character taskId → -32602 unknown task in the 2026-07-28 shape, not 503', async () => {
    const taskId = 't'.repeat(1025);
    const meta = { ...statelessMeta(), [OPT_IN_KEY]: { extensions: { [TASKS]: {} } } };
    const got = await answer(
      await postStateless(bos.url, {
        token,
        headers: { 'Mcp-Name': taskId },
        body: { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId, _meta: meta } },
      }),
    );
    assert.equal(got.code, -32602, got.text);
    assert.ok(got.status < 500, got.text);
  });

  it('an Mcp-Session-Id of 2,049 bytes → 404 on POST, GET and DELETE, not 500', async () => {
    const headers = {
      Authorization: `Bearer ${token}`,
      'Mcp-Session-Id': 's'.repeat(2049),
      'MCP-Protocol-Version': '2025-11-25',
    };
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const statuses = [
      (await post(bos.url, { token, headers: { 'Mcp-Session-Id': 's'.repeat(2049) }, body: list })).status,
      (await fetch(bos.url, { method: 'GET', headers: { ...headers, Accept: 'text/event-stream' } })).status,
      (await fetch(bos.url, { method: 'DELETE', headers })).status,
    ];
    assert.deepEqual(statuses, [404, 404, 404]);
  });

  it('search_people "\\u0000zzqq" over slapd and the SCIM server → -32602, never every entry', async () => {
    const args = {
      context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
      tool_name: 'search_people',
      arguments: { query: '\u0000zzqq' },
    };
    const viaExecute = await answer(
      await post(bos.url, { token, sessionId, body: toolCall(1, 'bos_execute', args) }),
    );
    assert.deepEqual([viaExecute.status, viaExecute.code], [200, -32602], viaExecute.text.slice(0, 300));
    const direct = await answer(
      await post(bos.url, { token, sessionId, body: toolCall(2, 'search_people', { query: '\u0000zzqq' }) }),
    );
    assert.deepEqual([direct.status, direct.code], [200, -32602], direct.text.slice(0, 300));
    // The same text without the NUL reads both providers and matches nobody.
    const plain = await answer(
      await post(bos.url, {
        token,
        sessionId,
        body: toolCall(3, 'bos_execute', { ...args, arguments: { query: 'zzqq' } }),
      }),
    );
    type Envelope = { result: { structuredContent: { result: { metadata: Record<string, unknown> } } } };
    const result = (JSON.parse(plain.text) as Envelope).result.structuredContent.result;
    assert.equal(result.metadata.result_count, 0, plain.text.slice(0, 300));
    const read = JSON.stringify(result.metadata.provenance);
    assert.ok(read.includes('acme-ldap') && read.includes('acme-scim'), read);
  });

  it('list_people with updated_since 2026-13-45T00:00:00Z → -32602, not every record', async () => {
    const got = await answer(
      await post(bos.url, {
        token,
        sessionId,
        body: toolCall(1, 'list_people', { updated_since: '2026-13-45T00:00:00Z' }),
      }),
    );
    assert.deepEqual([got.status, got.code], [200, -32602], got.text.slice(0, 300));
  });

  it('wrote no warning or error line, and no DynamoDB text, for any of it', () => {
    const bad = bos.logs.filter((line) => /^(warn|error)$/i.test(String(line.fields.level)));
    assert.deepEqual(
      bad.map((line) => line.fields.message),
      [],
    );
    assert.ok(!bos.lines.some((line) => /primary key|ValidationException/.test(line)));
  });
});
