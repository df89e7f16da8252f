/**
 * The rows of the hostile-input table (`hostile-input.test.ts`): prototype-named keys in every position,
 * encodings, sizes, nesting, batches, duplicate headers and path tricks, each with the HTTP status and
 * JSON-RPC code it must get.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ENDPOINT_PATH, modernHeaders, modernMeta, postEvent, rpc, session } from './hostile-harness.js';

export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

/** One case of the table. */
export interface Row {
  name: string;
  status: number;
  /** JSON-RPC error code; `null` for a success result; undefined where the body is not JSON-RPC. */
  code: number | null | undefined;
  event: () => Promise<APIGatewayProxyEvent> | APIGatewayProxyEvent;
}

const echo = (id: number, args: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":${args}}}`;

function nested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

export const rows: Row[] = [
  // Prototype-named keys in every position.
  ...PROTOTYPE_NAMES.map((name): Row => ({
    name: `header named ${name}`,
    status: 200,
    code: null,
    event: () =>
      postEvent(
        rpc(1, 'server/discover'),
        {},
        { multiValueHeaders: JSON.parse(`{"${name}":["x"]}`) as Record<string, string[]> },
      ),
  })),
  {
    name: 'query parameters named like Object.prototype members',
    status: 200,
    code: null,
    event: () =>
      postEvent(
        rpc(1, 'initialize', {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'h', version: '1' },
        }),
        {},
        {
          multiValueQueryStringParameters: JSON.parse(
            '{"__proto__":["a"],"constructor":["b"],"toString":["c"]}',
          ) as Record<string, string[]>,
          queryStringParameters: JSON.parse('{"__proto__":"a","constructor":"b","toString":"c"}') as Record<
            string,
            string
          >,
        },
      ),
  },
  ...PROTOTYPE_NAMES.map((name): Row => ({
    name: `2026-07-28 method ${name}`,
    status: 404,
    code: -32601,
    event: () => postEvent(rpc(1, name, { _meta: modernMeta }), modernHeaders(name)),
  })),
  {
    name: 'session-ful method constructor',
    status: 200,
    code: -32601,
    event: async () => postEvent(rpc(1, 'constructor'), await session('2025-11-25')),
  },
  {
    name: 'tool named __proto__ (session-ful)',
    status: 200,
    code: -32602,
    event: async () =>
      postEvent(rpc(1, 'tools/call', { name: '__proto__', arguments: {} }), await session('2025-11-25')),
  },
  {
    name: 'tool named constructor (2026-07-28)',
    status: 200,
    code: -32602,
    event: () =>
      postEvent(
        rpc(1, 'tools/call', { name: 'constructor', arguments: {}, _meta: modernMeta }),
        modernHeaders('tools/call', 'constructor'),
      ),
  },
  {
    name: 'prompt named toString (2026-07-28)',
    status: 200,
    code: -32602,
    event: () =>
      postEvent(
        rpc(1, 'prompts/get', { name: 'toString', _meta: modernMeta }),
        modernHeaders('prompts/get', 'toString'),
      ),
  },
  {
    name: 'arguments with __proto__ and constructor keys (extra properties as data)',
    status: 200,
    code: -32602,
    event: async () =>
      postEvent(
        echo(1, '{"message":"hi","__proto__":{"x":1},"constructor":"c"}'),
        await session('2025-11-25'),
      ),
  },
  {
    name: 'params whose only key is __proto__',
    status: 200,
    code: -32602,
    event: async () =>
      postEvent(
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"__proto__":{"name":"echo"}}}',
        await session('2025-11-25'),
      ),
  },
  {
    name: '_meta keys only under __proto__ (2026-07-28)',
    status: 400,
    code: -32602,
    event: () =>
      postEvent(
        `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"__proto__":${JSON.stringify(modernMeta)}}}}`,
        modernHeaders('tools/list'),
      ),
  },
  {
    name: 'top-level __proto__ carrying jsonrpc and method',
    status: 200,
    code: -32600,
    event: () => postEvent('{"__proto__":{"jsonrpc":"2.0","method":"tools/list"},"id":1}'),
  },
  // Encodings.
  {
    name: 'invalid UTF-8 byte inside a JSON string (base64 event)',
    status: 200,
    code: -32700,
    event: () =>
      postEvent(
        Buffer.concat([
          Buffer.from(echo(1, '{"message":"').slice(0, -0)),
          Buffer.from([0xff]),
          Buffer.from('"}}}'),
        ]),
      ),
  },
  {
    name: 'overlong UTF-8 encoding of "/"',
    status: 200,
    code: -32700,
    event: () =>
      postEvent(
        Buffer.concat([
          Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools'),
          Buffer.from([0xc0, 0xaf]),
          Buffer.from('list"}'),
        ]),
      ),
  },
  {
    name: 'UTF-16LE body',
    status: 200,
    code: -32700,
    event: () => postEvent(Buffer.from(rpc(1, 'tools/list'), 'utf16le')),
  },
  {
    name: 'NUL bytes around the JSON',
    status: 200,
    code: -32700,
    event: () =>
      postEvent(Buffer.concat([Buffer.from([0]), Buffer.from(rpc(1, 'tools/list')), Buffer.from([0])])),
  },
  {
    name: 'base64 that is not canonical',
    status: 400,
    code: -32700,
    event: () => postEvent('', {}, { body: 'eyJq=', isBase64Encoded: true }),
  },
  {
    name: '3.5 MB application/octet-stream body (base64 by API Gateway)',
    status: 400,
    code: -32600,
    event: () => postEvent(Buffer.alloc(3_500_000, 0x41), { 'Content-Type': 'application/octet-stream' }),
  },
  {
    name: 'escaped lone surrogate in a string (valid JSON)',
    status: 200,
    code: null,
    event: async () => postEvent(echo(1, '{"message":"\\ud800"}'), await session('2025-11-25')),
  },
  // Sizes and nesting.
  {
    name: 'body over 4 MiB',
    status: 413,
    code: -32600,
    event: () =>
      postEvent(
        `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"${'x'.repeat(4 * 1024 * 1024)}"}}`,
      ),
  },
  {
    name: 'id of 100,000 characters',
    status: 200,
    code: null,
    event: () => postEvent(rpc('i'.repeat(100_000), 'server/discover')),
  },
  {
    name: 'arrays nested 100,000 deep as the body',
    status: 200,
    code: -32700,
    event: () => postEvent(nested(100_000)),
  },
  {
    name: 'arguments nested 100,000 deep',
    status: 200,
    code: -32602,
    event: async () =>
      postEvent(echo(1, `{"message":"m","deep":${nested(100_000)}}`), await session('2025-11-25')),
  },
  // Batches.
  {
    name: 'batch of 51 elements on a 2025-03-26 session',
    status: 200,
    code: -32600,
    event: async () =>
      postEvent(
        `[${Array.from({ length: 51 }, (_, i) => rpc(i, 'tools/list')).join(',')}]`,
        await session('2025-03-26'),
      ),
  },
  {
    name: 'batch of 50 elements on a 2025-03-26 session',
    status: 200,
    code: null,
    event: async () =>
      postEvent(
        `[${Array.from({ length: 50 }, (_, i) => rpc(i, 'tools/list')).join(',')}]`,
        await session('2025-03-26'),
      ),
  },
  {
    name: 'empty batch on a 2025-03-26 session',
    status: 200,
    code: -32600,
    event: async () => postEvent('[]', await session('2025-03-26')),
  },
  {
    name: 'batch of arrays on a 2025-03-26 session',
    status: 200,
    code: -32600,
    event: async () => postEvent('[[1],[2]]', await session('2025-03-26')),
  },
  {
    name: 'batch on a 2025-11-25 session',
    status: 200,
    code: -32700,
    event: async () => postEvent(`[${rpc(1, 'tools/list')}]`, await session('2025-11-25')),
  },
  {
    name: 'batch without a session',
    status: 200,
    code: -32700,
    event: () => postEvent(`[${rpc(1, 'tools/list')}]`),
  },
  // Duplicate and malformed headers.
  {
    name: 'two different MCP-Protocol-Version values',
    status: 400,
    code: -32020,
    event: () =>
      postEvent(
        rpc(1, 'tools/list', { _meta: modernMeta }),
        {},
        {
          multiValueHeaders: {
            'MCP-Protocol-Version': ['2026-07-28', '2025-11-25'],
            'Mcp-Method': ['tools/list'],
          },
        },
      ),
  },
  {
    name: 'two different Mcp-Method values',
    status: 400,
    code: -32020,
    event: () =>
      postEvent(
        rpc(1, 'tools/list', { _meta: modernMeta }),
        {},
        {
          multiValueHeaders: {
            'MCP-Protocol-Version': ['2026-07-28'],
            'Mcp-Method': ['tools/list', 'tools/call'],
          },
        },
      ),
  },
  {
    name: 'two Content-Type values',
    status: 400,
    code: -32600,
    event: () =>
      postEvent(
        rpc(1, 'tools/list'),
        {},
        { multiValueHeaders: { 'Content-Type': ['application/json', 'text/plain'] } },
      ),
  },
  {
    name: 'two Mcp-Session-Id values',
    status: 404,
    code: undefined,
    event: async () => {
      const id = (await session('2025-11-25'))['Mcp-Session-Id'] ?? '';
      return postEvent(rpc(1, 'tools/list'), {}, { multiValueHeaders: { 'Mcp-Session-Id': [id, 'other'] } });
    },
  },
  {
    name: 'header value with CR LF',
    status: 400,
    code: -32600,
    event: () =>
      postEvent(rpc(1, 'tools/list'), {}, { multiValueHeaders: { 'X-Evil': ['a\r\nSet-Cookie: x=1'] } }),
  },
  {
    name: 'header name that is not a token',
    status: 400,
    code: -32600,
    event: () => postEvent(rpc(1, 'tools/list'), {}, { multiValueHeaders: { 'bad name': ['x'] } }),
  },
  {
    name: 'foreign Origin',
    status: 403,
    code: -32600,
    event: () => postEvent(rpc(1, 'tools/list'), { Origin: 'https://evil.example' }),
  },
  // Path tricks and methods.
  {
    name: 'path //evil.example/mcp/apps/bos/platform',
    status: 404,
    code: -32600,
    event: () => postEvent(rpc(1, 'tools/list'), {}, { path: `//evil.example${ENDPOINT_PATH}` }),
  },
  {
    name: 'path /x/../mcp/apps/bos/platform',
    status: 404,
    code: -32600,
    event: () => postEvent(rpc(1, 'tools/list'), {}, { path: `/x/..${ENDPOINT_PATH}` }),
  },
  {
    name: 'path with an encoded slash and dot segments',
    status: 404,
    code: -32600,
    event: () => postEvent(rpc(1, 'tools/list'), {}, { path: `${ENDPOINT_PATH}%2F..%2F..` }),
  },
  {
    name: 'path with a NUL byte',
    status: 404,
    code: -32600,
    event: () => postEvent(rpc(1, 'tools/list'), {}, { path: `${ENDPOINT_PATH}\u0000` }),
  },
  {
    name: 'trailing slash on the MCP path',
    status: 200,
    code: null,
    event: () => postEvent(rpc(1, 'server/discover'), {}, { path: `${ENDPOINT_PATH}/` }),
  },
  {
    name: 'method PUT',
    status: 405,
    code: undefined,
    event: () => postEvent(rpc(1, 'tools/list'), {}, { httpMethod: 'PUT' }),
  },
  {
    name: 'method TRACE',
    status: 400,
    code: -32600,
    event: () => postEvent(rpc(1, 'tools/list'), {}, { httpMethod: 'TRACE' }),
  },
];
