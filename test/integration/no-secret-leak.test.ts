/**
 * The check that no token or secret value appears in any log line or response. One local stack (the
 * bundled platform entry under AWS's runtime client, REST v1 front, DynamoDB Local) trusting an issuer
 * whose JWKS this test serves, so every token is real. The sweep covers initialize, both lists, every BOS
 * tool as JSON and as a stream, both protocol shapes, every bad-token row, a token in the query string and
 * in a broken body, an expired session, a session replayed by another principal, GET and DELETE. Then
 * every function output line, every response (status, all headers, every body byte) and every stored
 * DynamoDB item is grepped for each token, each token segment and each source secret.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ScanCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import { createDynamoDbClient } from '../../lambda/aws/index.js';
import { startStack } from '../../local/stack.js';
import type { LocalStack } from '../../local/stack.js';
import { badTokenRows, createTokenKeys, tokenFactory } from '../helpers/bad-token-table.js';
import { optInMeta, post, postStateless, SSE_ACCEPT, statelessMeta, toolCall } from '../helpers/bos-stack.js';
import { freePort } from '../helpers/free-port.js';
import { startJwksServer } from '../helpers/jwks-server.js';
import type { JwksServer } from '../helpers/jwks-server.js';
import { captureResponse, findLeaks, tokenNeedles } from '../helpers/leak-scanner.js';
import type { Haystack, Needle } from '../helpers/leak-scanner.js';
import { javaSuite } from '../helpers/java.js';

const ISSUER = 'https://issuer.example.test';
const PATH = '/mcp/apps/bos/platform';
/** A source secret of our own, passed through the function environment like `BOS_SECRET_<NAME>` values. */
const MARKER_NAME = 'BOS_SECRET_NO_LEAK_MARKER';
const MARKER = `marker-${randomBytes(24).toString('hex')}`;
const keys = await createTokenKeys();

describe('no token or secret in any log line or response', javaSuite(600_000), () => {
  let stack: LocalStack;
  let jwks: JwksServer;
  let endpoint = '';
  let origin = '';
  let devUser = '';
  let outsider = '';
  /** Every line the function printed, JSON or not, stdout and stderr. */
  const lines: string[] = [];
  /** Every response: status line, all headers, the body bytes. */
  const responses: Haystack[] = [];
  /** Every token sent, by name. */
  const tokens = new Map<string, string>();

  /** Reads a response whole and keeps it for the grep. */
  const record = (label: string, response: Response) => captureResponse(label, response, responses);

  const initialize = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'leak-it', version: '1' },
    },
  });
  const sessionHeaders = (sessionId: string) => ({
    'Mcp-Session-Id': sessionId,
    'MCP-Protocol-Version': '2025-11-25',
  });

  async function openSession(label: string, token: string): Promise<string> {
    const response = await post(endpoint, { token, body: initialize(0) });
    const sessionId = response.headers.get('mcp-session-id');
    assert.equal((await record(label, response)).status, 200, label);
    assert.ok(sessionId !== null, label);
    const ack = await post(endpoint, {
      token,
      sessionId,
      body: { jsonrpc: '2.0', method: 'notifications/initialized' },
    });
    assert.equal((await record(`${label}: initialized`, ack)).status, 202);
    return sessionId;
  }

  before(async () => {
    jwks = await startJwksServer([keys.es.jwk, keys.rs.jwk]);
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    endpoint = `${origin}${PATH}`;
    stack = await startStack({
      port,
      bundleDir: '.local/test-bundles/no-secret-leak',
      poolSize: 2,
      timeoutSeconds: 60,
      auth: false,
      env: {
        AUTH_ISSUER: ISSUER,
        AUTH_AUDIENCE: endpoint,
        AUTH_JWKS_URL: jwks.url.toString(),
        BOS_FIXTURE_LATENCY_SCALE: '0.25',
        [MARKER_NAME]: MARKER,
      },
      onFunctionLog: ({ line }) => lines.push(line),
    });
    const { claims, sign } = tokenFactory(ISSUER, endpoint);
    devUser = await sign(keys.es.privateKey, 'ES256', 'es-1', claims({ sub: 'dev-user' }));
    outsider = await sign(keys.rs.privateKey, 'RS256', 'rs-1', claims({ sub: 'outsider' }));
    tokens.set('dev-user token', devUser);
    tokens.set('outsider token', outsider);
  });

  after(async () => {
    await stack?.close();
    await jwks?.close();
  });

  it('answers the whole sweep as the contract says (so the grep below has real traffic to search)', async () => {
    // Metadata, and a session-ful dev-user session with both lists.
    await record('metadata', await fetch(`${origin}/.well-known/oauth-protected-resource${PATH}`));
    const session = await openSession('dev-user initialize', devUser);
    const call = async (label: string, body: unknown) =>
      record(label, await post(endpoint, { token: devUser, sessionId: session, body }));
    assert.equal((await call('tools/list', { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status, 200);

    // Every BOS tool, as JSON and opted in to streaming. get_person needs a real record_ref first.
    const listed = await call('list_people', toolCall(2, 'list_people', {}));
    const recordRef = /"record_ref": ?"(bos:person:[A-Za-z0-9_-]+)"/.exec(listed.text)?.[1];
    assert.ok(recordRef !== undefined, 'list_people returned records');
    const operations: Array<[string, Record<string, unknown>]> = [
      ['search_people', { query: 'a' }],
      ['get_person', { record_ref: recordRef }],
      ['list_people', {}],
    ];
    const calls: Array<[string, Record<string, unknown>]> = [
      ['bos_list_contexts', {}],
      ['bos_list_tools', { context_handle: DEMO_PEOPLE_CONTEXT_HANDLE }],
      ...operations.map(([tool, args]): [string, Record<string, unknown>] => [
        'bos_execute',
        { context_handle: DEMO_PEOPLE_CONTEXT_HANDLE, tool_name: tool, arguments: args },
      ]),
      ...operations,
    ];
    let id = 10;
    for (const [name, args] of calls) {
      const json = await call(`${name} json`, toolCall(id++, name, args));
      assert.match(json.contentType, /^application\/json/, name);
      const streamed = await call(`${name} stream`, toolCall(id++, name, args, optInMeta()));
      assert.match(streamed.contentType, /^text\/event-stream/, name);
    }
    const keepalive = await record(
      'GET keepalive',
      await fetch(endpoint, {
        headers: {
          Authorization: `Bearer ${devUser}`,
          Accept: 'text/event-stream',
          ...sessionHeaders(session),
        },
      }),
    );
    assert.equal(keepalive.status, 200);

    // Stateless: discovery, a list, a streamed bos_execute and a JSON direct call.
    const stateless = async (label: string, method: string, params: Record<string, unknown>, optIn = false) =>
      record(
        label,
        await postStateless(endpoint, {
          token: devUser,
          body: { jsonrpc: '2.0', id: id++, method, params: { ...params, _meta: statelessMeta(optIn) } },
        }),
      );
    assert.equal((await stateless('stateless discover', 'server/discover', {})).status, 200);
    assert.equal((await stateless('stateless tools/list', 'tools/list', {})).status, 200);
    const streamedStateless = await stateless(
      'stateless bos_execute stream',
      'tools/call',
      {
        name: 'bos_execute',
        arguments: {
          context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
          tool_name: 'search_people',
          arguments: { query: 'a' },
        },
      },
      true,
    );
    assert.match(streamedStateless.contentType, /^text\/event-stream/);
    assert.match(streamedStateless.text, /"resultType":"complete"/);
    const statelessJson = await stateless('stateless search_people json', 'tools/call', {
      name: 'search_people',
      arguments: { query: 'a' },
    });
    assert.equal(statelessJson.status, 200);

    // outsider: its own session, a refused dev-user handle, and dev-user's session replayed (POST, GET, DELETE).
    const outsiderSession = await openSession('outsider initialize', outsider);
    const refused = await record(
      'outsider bos_execute with a dev-user handle',
      await post(endpoint, {
        token: outsider,
        sessionId: outsiderSession,
        body: toolCall(id++, 'bos_execute', {
          context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
          tool_name: 'list_people',
          arguments: {},
        }),
      }),
    );
    assert.match(refused.text, /"code":-32602/);
    const replayed = await record(
      'replayed session POST',
      await post(endpoint, {
        token: outsider,
        sessionId: session,
        body: toolCall(id++, 'bos_list_contexts', {}),
      }),
    );
    assert.equal(replayed.status, 404);
    for (const method of ['GET', 'DELETE'] as const) {
      const answer = await record(
        `replayed session ${method}`,
        await fetch(endpoint, {
          method,
          headers: { Authorization: `Bearer ${outsider}`, Accept: SSE_ACCEPT, ...sessionHeaders(session) },
        }),
      );
      assert.equal(answer.status, 404, method);
    }

    // Every bad-token row, session-ful and stateless.
    const rows = badTokenRows(keys, {
      issuer: ISSUER,
      audience: endpoint,
      metadataUrl: `${origin}/.well-known/oauth-protected-resource${PATH}`,
    });
    for (const row of rows) {
      const authorization = await row.authorization();
      if (authorization !== undefined) tokens.set(row.name, authorization.replace(/^Bearer /, ''));
      const headers: Record<string, string> =
        authorization === undefined ? {} : { Authorization: authorization };
      const first = await record(
        `${row.name} initialize`,
        await post(endpoint, { headers, body: initialize(1) }),
      );
      assert.equal(first.status, row.status, row.name);
      const second = await record(
        `${row.name} stateless`,
        await postStateless(endpoint, {
          headers,
          body: toolCall(2, 'bos_list_contexts', {}, statelessMeta()),
        }),
      );
      assert.equal(second.status, row.status, row.name);
    }

    // A token where it does not belong: the query string (RFC 6750 §2.3, not accepted here) and a broken body.
    const query = await record(
      'token in the query string',
      await post(`${endpoint}?access_token=${devUser}`, { body: initialize(3) }),
    );
    assert.equal(query.status, 401);
    const broken = await record(
      'token in a body that is not JSON',
      await fetch(endpoint, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${devUser}`,
          'Content-Type': 'application/json',
          Accept: SSE_ACCEPT,
          ...sessionHeaders(session),
        },
        body: `{"jsonrpc":"2.0","id":4,"method":"tools/list","token":"${devUser}"`,
      }),
    );
    // A parse error is a JSON-RPC error envelope (HTTP 200, as the reference vector `core-malformed-request`).
    assert.match(broken.text, /"code":-32700/);

    // An expired session: its expiresAt moved into the past in DynamoDB Local (expiry is checked on read).
    const expiring = await openSession('dev-user second initialize', devUser);
    await dynamo().send(
      new UpdateItemCommand({
        TableName: stack.environment['MCP_SESSION_TABLE'],
        Key: { sessionId: { S: expiring } },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': { N: String(Math.floor(Date.now() / 1000) - 60) } },
      }),
    );
    const expired = await record(
      'expired session',
      await post(endpoint, {
        token: devUser,
        sessionId: expiring,
        body: { jsonrpc: '2.0', id: 5, method: 'tools/list' },
      }),
    );
    assert.equal(expired.status, 404);

    // DELETE by the owner, then the session is gone.
    const deleted = await record(
      'DELETE own session',
      await fetch(endpoint, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${devUser}`, ...sessionHeaders(session) },
      }),
    );
    assert.equal(deleted.status, 202);
    const gone = await call('after DELETE', { jsonrpc: '2.0', id: 6, method: 'tools/list' });
    assert.equal(gone.status, 404);

    assert.equal(tokens.size, 12, 'dev-user, outsider and the ten bad-token rows that carry a token');
    assert.ok(lines.length > 0, 'the function printed lines');
  });

  const dynamo = () =>
    createDynamoDbClient({ endpoint: stack.dynamoDbEndpoint ?? assert.fail('no DynamoDB') });

  /** Every token and segment sent, and every `BOS_SECRET_*` value the function was given. */
  function needles(): Needle[] {
    const secrets = Object.entries(stack.environment)
      .filter(([name]) => name.startsWith('BOS_SECRET_'))
      .map(([name, value]) => ({ name, value }));
    assert.ok(
      secrets.some((s) => s.value === MARKER),
      'the marker reached the function environment',
    );
    return [...[...tokens].flatMap(([name, token]) => tokenNeedles(name, token)), ...secrets];
  }

  const report = (leaks: ReturnType<typeof findLeaks>) =>
    leaks
      .slice(0, 5)
      .map((l) => `${l.needle} in ${l.where}: ${l.excerpt}`)
      .join('\n');

  it('never prints a token, a token segment or a source secret in any function output line', (t) => {
    const searched = needles();
    t.diagnostic(
      `${lines.length} lines, ${responses.length} responses; ${searched.length} values searched: ` +
        searched.map((n) => n.name).join(', '),
    );
    const leaks = findLeaks(
      lines.map((text, index) => ({ where: `function line ${index + 1}`, text })),
      searched,
    );
    assert.deepEqual(leaks, [], report(leaks));
    assert.ok(
      lines.some((line) => line.includes('bos.auth.refused')),
      'the refusals were logged, so the grep searched them',
    );
  });

  it('never sends a token, a token segment or a source secret in any status line, header or body byte', () => {
    assert.ok(responses.length >= 50, `the sweep captured ${responses.length} responses`);
    const leaks = findLeaks(responses, needles());
    assert.deepEqual(leaks, [], report(leaks));
  });

  it('never stores a token, a token segment or a source secret in any DynamoDB item', async () => {
    const tables = Object.entries(stack.environment).filter(([name]) => name.endsWith('_TABLE'));
    assert.ok(tables.length >= 3, 'session, stream and directory tables at least');
    const items: Haystack[] = [];
    for (const [variable, table] of tables) {
      let start: Record<string, AttributeValue> | undefined;
      do {
        const page = await dynamo().send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
        for (const item of page.Items ?? [])
          items.push({ where: `${variable} item`, text: JSON.stringify(item) });
        start = page.LastEvaluatedKey;
      } while (start !== undefined);
    }
    assert.ok(
      items.some((i) => i.where === 'MCP_SESSION_TABLE item'),
      'sessions were stored',
    );
    const leaks = findLeaks(items, needles());
    assert.deepEqual(leaks, [], report(leaks));
  });

  it('has a scanner that would catch a leak: a planted segment or secret in a real line and response is found', () => {
    // Prepare: one real captured log line and one real response, each with something planted in it.
    const line = lines.find((l) => l.includes('bos.auth.refused')) ?? assert.fail('no refusal line');
    const response = responses[0] ?? assert.fail('no response');
    const signature = outsider.split('.')[2] ?? assert.fail('outsider token has no signature');
    const planted: Haystack[] = [
      {
        where: 'planted line',
        text: line.replace('"level"', `"authorization":"Bearer x.y.${signature}","level"`),
      },
      { where: 'planted response', text: `${response.text}\n${MARKER}` },
      { where: 'clean line', text: line },
    ];
    // Act
    const leaks = findLeaks(planted, needles());
    // Assess
    assert.deepEqual(
      leaks.map((l) => [l.needle, l.where]),
      [
        ['outsider token segment 3', 'planted line'],
        [MARKER_NAME, 'planted response'],
      ],
    );
    assert.ok(!leaks.some((l) => l.excerpt.includes(signature)), 'a report masks the leaked value');
  });
});
