/**
 * Property: whatever combination of protocol/routing headers (absent, wrong, duplicated, Base64),
 * session ids, `_meta` contents and bodies a client sends, the endpoint never throws, never answers
 * 5xx, and every answer is one of the documented status/code pairs (docs/mcp-runtime.md "Stateless
 * shape (2026-07-28)").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { McpServer } from '../../../../lambda/mcp/index.js';
import { makeServer, postHeaders } from '../helpers.js';
import { sentinel } from './helpers.js';

/** Status → the JSON-RPC error codes documented for it (200 also allows results and SSE). */
const DOCUMENTED: Record<number, readonly number[]> = {
  200: [-32700, -32600, -32601, -32602],
  400: [-32700, -32600, -32602, -32020, -32021, -32022],
  404: [-32601],
};

function server(): McpServer {
  const s = makeServer({ keepaliveMs: 0 });
  s.registerTool(
    {
      name: 'echo',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string' }, region: { type: 'string', 'x-mcp-header': 'Region' } },
      },
    },
    (args) =>
      Promise.resolve({
        content: [{ type: 'text', text: typeof args.message === 'string' ? args.message : '' }],
      }),
  );
  s.registerTool({ name: 'ask', inputSchema: { type: 'object' } }, (_args, ctx) =>
    Promise.resolve(
      ctx.requestState === 's'
        ? { content: [{ type: 'text', text: 'ok' }] }
        : {
            content: [],
            resultType: 'input_required',
            inputRequests: { q: { method: 'elicitation/create', params: { message: '?' } } },
            requestState: 's',
          },
    ),
  );
  s.registerStreamingTool({ name: 'stream', inputSchema: { type: 'object' } }, (_args, ctx) => {
    ctx.progress(1, 1);
    return Promise.resolve({ content: [{ type: 'text', text: 'streamed' }] });
  });
  return s;
}

const versions = fc.constantFrom('2026-07-28', '2025-11-25', '2025-06-18', '2099-01-01', 'junk', '');
const methods = fc.constantFrom(
  'tools/call',
  'tools/list',
  'server/discover',
  'prompts/get',
  'resources/read',
  'ping',
  'initialize',
  'notifications/initialized',
  'logging/setLevel',
  'tasks/get',
  'TOOLS/LIST',
);
const names = fc.constantFrom('echo', 'ask', 'stream', 'missing', 'file:///x', '');
const jsonish = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.string({ maxLength: 8 }),
  fc.constant({}),
  fc.constant([]),
  fc.dictionary(fc.constantFrom('elicitation', 'sampling', 'q'), fc.constant({}), { maxKeys: 2 }),
);

/** How a routing header relates to the body: absent, correct, wrong, duplicated or Base64-wrapped. */
const headerForm = fc.constantFrom(
  'absent',
  'correct',
  'same-twice',
  'conflicting',
  'base64',
  'bad-base64',
  'wrong',
);

function headerValue(form: string, correct: string): string | undefined {
  switch (form) {
    case 'absent':
      return undefined;
    case 'same-twice':
      return `${correct}, ${correct}`;
    case 'conflicting':
      return `${correct}, other`;
    case 'base64':
      return sentinel(correct);
    case 'bad-base64':
      return '=?base64?***?=';
    case 'wrong':
      return 'something/else';
    default:
      return correct;
  }
}

const meta = fc.oneof(
  fc.constant(undefined),
  fc.record(
    {
      'io.modelcontextprotocol/protocolVersion': fc.oneof(versions, fc.integer()),
      'io.modelcontextprotocol/clientCapabilities': jsonish,
      'io.modelcontextprotocol/logLevel': fc.constantFrom('info', 'debug', 'loud'),
      progressToken: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()),
    },
    { requiredKeys: [] },
  ),
);

const exchange = fc.record({
  protocol: fc.oneof(fc.constant(undefined), versions, fc.constant('2026-07-28, 2025-11-25')),
  method: methods,
  name: names,
  id: fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer(), fc.string({ maxLength: 4 })),
  meta,
  args: jsonish,
  region: fc.oneof(fc.constant(undefined), fc.constant('eu')),
  requestState: jsonish,
  inputResponses: jsonish,
  task: fc.boolean(),
  sessionId: fc.constantFrom(undefined, 'no-such-session'),
  methodHeader: headerForm,
  nameHeader: headerForm,
  raw: fc.oneof(
    fc.constant(undefined),
    fc.constantFrom('{', '[]', '"x"', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]'),
  ),
});

type Exchange = typeof exchange extends fc.Arbitrary<infer T> ? T : never;

function build(e: Exchange): Request {
  const headers = new Headers(postHeaders);
  const set = (name: string, value: string | undefined) => {
    if (value !== undefined && value !== '') headers.set(name, value);
  };
  set('mcp-protocol-version', e.protocol);
  set('mcp-method', headerValue(e.methodHeader, e.method));
  set('mcp-name', headerValue(e.nameHeader, e.name));
  set('mcp-param-region', e.region);
  set('mcp-session-id', e.sessionId);
  const params: Record<string, unknown> = { name: e.name, uri: e.name };
  if (e.meta !== undefined) params._meta = e.meta;
  if (e.args !== undefined) params.arguments = e.args;
  if (e.requestState !== undefined) params.requestState = e.requestState;
  if (e.inputResponses !== undefined) params.inputResponses = e.inputResponses;
  if (e.task) params.task = {};
  const body =
    e.raw ??
    JSON.stringify(
      e.id === undefined
        ? { jsonrpc: '2.0', method: e.method, params }
        : { jsonrpc: '2.0', id: e.id, method: e.method, params },
    );
  return new Request('http://localhost/mcp', { method: 'POST', headers, body });
}

/** Problems with one response; empty when it is a documented pair. */
async function problems(res: Response): Promise<string[]> {
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  if (res.status === 202) return text === '' ? [] : ['202 with a body'];
  if (type === 'text/event-stream') {
    if (res.status !== 200) return [`SSE with status ${res.status}`];
    const finals = text.split('\n').filter((l) => l.startsWith('data: ') && l.includes('"id"'));
    return finals.length === 1 ? [] : [`SSE with ${finals.length} final frames`];
  }
  const allowed = DOCUMENTED[res.status];
  if (allowed === undefined) return [`undocumented status ${res.status}: ${text}`];
  const body = JSON.parse(text) as { error?: { code?: number } | string; result?: unknown };
  // The session-ful shape's pinned body for an unknown session id.
  if (typeof body.error === 'string') {
    return res.status === 404 && body.error === 'session not found' ? [] : [`plain error ${text}`];
  }
  if (body.result !== undefined) return res.status === 200 ? [] : [`result with status ${res.status}`];
  const code = body.error?.code;
  return typeof code === 'number' && allowed.includes(code)
    ? []
    : [`status ${res.status} with code ${String(code)}: ${text}`];
}

describe('stateless shape under arbitrary headers, _meta and bodies', () => {
  it('never throws, never answers 5xx, and answers only documented status/code pairs', async () => {
    const s = server();
    await fc.assert(
      fc.asyncProperty(exchange, async (e) => {
        const res = await s.handle(build(e));
        assert.ok(res.status < 500, `5xx for ${JSON.stringify(e)}`);
        const found = await problems(res);
        assert.deepEqual(found, [], `${found.join('; ')} for ${JSON.stringify(e)}`);
      }),
      { numRuns: 400 },
    );
    await s.settled();
  });
});
