/**
 * The MCP HTTP client against a real local HTTP server (node:http on 127.0.0.1:0) with chunked SSE:
 * both protocol shapes, the streaming opt-in, headers, and incremental delivery.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  McpHttpClient,
  McpHttpStatusError,
  decodeMcpHeaderValue,
  encodeMcpHeaderValue,
  type ProvisionalPage,
} from '../../../client/index.js';
import { DEMO_RECORD } from './contract-example.js';
import { PROVISIONAL_RECORD, optedIn, startFakePlatform, type FakePlatform } from './fake-platform.js';

const TOKEN = 'test-token-123';

describe('encodeMcpHeaderValue', () => {
  it('leaves plain visible ASCII names as they are', () => {
    assert.equal(encodeMcpHeaderValue('bos_execute'), 'bos_execute');
    assert.equal(encodeMcpHeaderValue('a name\twith inner space'), 'a name\twith inner space');
  });

  it('uses the =?base64?…?= form for non-ASCII, surrounding whitespace, control characters and sentinel look-alikes', () => {
    for (const value of ['suché_osoby', ' padded', 'trailing ', 'line\nbreak', '=?base64?abc?=', ''])
      assert.equal(
        encodeMcpHeaderValue(value),
        `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`,
        JSON.stringify(value),
      );
    assert.equal(decodeMcpHeaderValue(encodeMcpHeaderValue('人物検索')), '人物検索');
  });

  it('decodes the sentinel of the shared routing fixture to the body name', (t) => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
    const fixture = join(root, '../shared/fixtures/apptheory/mcp/conformance-2026-routing-name-base64.json');
    if (!existsSync(fixture)) {
      t.skip(`fixture folder absent: ${fixture}`);
      return;
    }
    const text = readFileSync(fixture, 'utf8');
    const step = (
      JSON.parse(text) as {
        input: { mcp: { steps: { name: string; request: { headers: Record<string, string[]> } }[] } };
      }
    ).input.mcp.steps.find((s) => s.name === 'base64_name_matches_body');
    assert.equal(decodeMcpHeaderValue(step?.request.headers['mcp-name']?.[0] ?? ''), 'echo');
  });
});

describe('McpHttpClient, stateless 2026-07-28', () => {
  let platform: FakePlatform;
  let released = false;
  let release: () => void = () => undefined;
  // Created before any call, so a page that arrives before the server starts waiting still counts.
  const gate = new Promise<void>((resolve) => {
    release = () => {
      released = true;
      resolve();
    };
  });
  before(async () => {
    // The rest of the stream is held back until the client has seen the first page (or 5 s pass),
    // which proves pages are delivered while the response is still open.
    platform = await startFakePlatform({
      beforeRest: () =>
        Promise.race([gate, new Promise<void>((resolve) => setTimeout(resolve, 5000).unref())]),
    });
  });
  after(() => platform.close());

  it('discovers the advertised extension through server/discover', async () => {
    const client = new McpHttpClient({ url: platform.url, protocol: 'stateless', token: TOKEN });
    const info = await client.discover();
    assert.deepEqual(info.sourceResults, {
      pageSize: 100,
      maxConcurrentSources: 8,
      contractUri: 'https://dfsm.ai/apps/bos/source-results-v1.html',
    });
    assert.deepEqual(info.protocolVersions, ['2026-07-28']);
    const request = platform.requests.at(-1);
    assert.equal(request?.headers['mcp-method'], 'server/discover');
    assert.equal(request?.headers['mcp-name'], undefined);
  });

  it('streams a call: pages arrive before the final frame, and the final result is authoritative', async () => {
    const client = new McpHttpClient({ url: platform.url, protocol: 'stateless', token: TOKEN });
    const pages: ProvisionalPage[] = [];
    const outcome = await client.callTool(
      'bos_execute',
      { context_handle: 'h', tool_name: 'search_people', arguments: { query: 'ex' } },
      {
        stream: true,
        onPage: (page) => {
          pages.push(page);
          release();
        },
      },
    );
    assert.equal(released, true, 'the first page reached onPage while the server held back the final frame');
    assert.equal(outcome.confirmed, true);
    if (!outcome.confirmed) return;
    assert.equal(outcome.delivery, 'sse');
    assert.deepEqual(pages[0]?.records, [PROVISIONAL_RECORD]);
    assert.deepEqual(outcome.records, [DEMO_RECORD]);
    assert.equal(outcome.resultType, 'complete');
    assert.equal(outcome.completeness, 'partial');
    assert.deepEqual(outcome.violations, []);

    const request = platform.requests.at(-1);
    assert.equal(request?.headers['mcp-protocol-version'], '2026-07-28');
    assert.equal(request?.headers['mcp-method'], 'tools/call');
    assert.equal(request?.headers['mcp-name'], 'bos_execute');
    assert.equal(request?.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(request?.headers.accept, 'application/json, text/event-stream');
    assert.equal(request?.headers['content-type'], 'application/json');
    assert.equal(request?.headers['mcp-session-id'], undefined);
    const body = request?.body as { id: unknown; params: { _meta: Record<string, unknown> } };
    assert.equal(typeof body.id, 'number');
    assert.deepEqual(body.params._meta, {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { experimental: { 'bos/source-results/v1': {} } },
      'io.modelcontextprotocol/clientInfo': { name: 'bos-mcp-client', version: '0.1.0' },
    });
  });

  it('sends no opt-in without stream and reads the JSON delivery', async () => {
    const client = new McpHttpClient({ url: platform.url, protocol: 'stateless' });
    const outcome = await client.callTool('suché_osoby', { query: 'x' });
    const request = platform.requests.at(-1);
    assert.ok(request !== undefined && !optedIn(request));
    assert.equal(request.headers['mcp-name'], encodeMcpHeaderValue('suché_osoby'));
    assert.equal(request.headers.authorization, undefined);
    assert.equal(outcome.confirmed && outcome.delivery, 'json');
    assert.deepEqual(outcome.confirmed && outcome.records, [DEMO_RECORD]);
  });

  it('raises an HTTP status error for an unknown method answered with 404', async () => {
    const client = new McpHttpClient({ url: platform.url, protocol: 'stateless' });
    await assert.rejects(
      client.request('nope/nothing', {}),
      (e: unknown) => e instanceof McpHttpStatusError && e.status === 404,
    );
  });
});

describe('McpHttpClient, session-ful 2025-11-25', () => {
  let platform: FakePlatform;
  before(async () => {
    platform = await startFakePlatform({ sessionId: 'sess-xyz' });
  });
  after(() => platform.close());

  it('initializes, acknowledges, carries the session on every request and deletes it on close', async () => {
    const client = new McpHttpClient({ url: platform.url, token: TOKEN });
    const info = await client.discover();
    assert.equal(info.sourceResults?.pageSize, 100);
    assert.equal(client.sessionId, 'sess-xyz');
    const tools = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['bos_execute'],
    );
    const outcome = await client.callTool('bos_execute', {}, { stream: true });
    assert.equal(outcome.confirmed && outcome.resultType, undefined);
    assert.equal(outcome.confirmed && outcome.observedPages.length, 1);
    await client.close();

    assert.deepEqual(
      platform.requests.map((r) => [r.method, r.body?.method ?? null, r.headers['mcp-session-id'] ?? null]),
      [
        ['POST', 'initialize', null],
        ['POST', 'notifications/initialized', 'sess-xyz'],
        ['POST', 'tools/list', 'sess-xyz'],
        ['POST', 'tools/call', 'sess-xyz'],
        ['DELETE', null, 'sess-xyz'],
      ],
    );
    assert.ok(platform.requests.every((r) => r.headers.authorization === `Bearer ${TOKEN}`));
    assert.ok(platform.requests.slice(1).every((r) => r.headers['mcp-protocol-version'] === '2025-11-25'));
    const call = platform.requests[3];
    assert.deepEqual(call?.body?.params, {
      name: 'bos_execute',
      arguments: {},
      _meta: {
        'io.modelcontextprotocol/clientCapabilities': { experimental: { 'bos/source-results/v1': {} } },
      },
    });
    assert.equal(call?.headers['mcp-method'], undefined);
  });
});

describe('McpHttpClient when the stream ends early', () => {
  let platform: FakePlatform;
  before(async () => {
    platform = await startFakePlatform({ dropFinal: true });
  });
  after(() => platform.close());

  it('returns no confirmed result even though every source reported its terminal', async () => {
    const client = new McpHttpClient({ url: platform.url, protocol: 'stateless' });
    const outcome = await client.callTool('bos_execute', {}, { stream: true });
    assert.equal(outcome.confirmed, false);
    assert.equal(outcome.sources.length, 2);
    assert.ok(outcome.sources.every((s) => s.terminal !== undefined));
  });
});
