/**
 * The hostile-input table, through the deployed entry's code path in process (middy streamify mode, the REST
 * v1 adapter, the MCP runtime): the rows of `hostile-rows.ts` and `hostile-key-rows.ts`. Each row pins the
 * exact HTTP status and JSON-RPC code, and no answer may carry runtime text. Then a property over arbitrary
 * request bytes: never a 5xx, never runtime text.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { linesAt } from '../../helpers/log-lines.js';
import { restEvent } from '../../helpers/rest-events.js';
import {
  ENDPOINT_PATH,
  POST_HEADERS,
  RUNTIME_TEXT,
  invoke,
  loadEntry,
  unloadEntry,
} from './hostile-harness.js';
import type { Answer } from './hostile-harness.js';
import { keyRows } from './hostile-key-rows.js';
import { PROTOTYPE_NAMES, rows as baseRows } from './hostile-rows.js';

const rows = [...baseRows, ...keyRows];

/** The table printed after the run: case, status, code. */
const table: string[] = [];

describe('hostile input through the Lambda entry', { timeout: 120_000 }, () => {
  before(loadEntry);
  after(() => {
    unloadEntry();
    const width = Math.max(...table.map((line) => line.indexOf('\t')));
    process.stdout.write(
      `\n${['case', ...table].map((line) => (line === 'case' ? `${'case'.padEnd(width)}  status  code` : line.replace('\t', ' '.repeat(width - line.indexOf('\t') + 2)))).join('\n')}\n`,
    );
  });

  for (const row of rows) {
    it(`${row.name} → ${row.status} ${row.code === null ? 'result' : (row.code ?? '(no JSON-RPC body)')}`, async () => {
      const answer: Answer = await invoke(await row.event());
      table.push(
        `${row.name}\t${String(answer.status).padEnd(6)}  ${answer.code ?? (answer.status < 300 ? 'result' : '-')}`,
      );
      assert.doesNotMatch(answer.body.slice(0, 100_000), RUNTIME_TEXT);
      // Bad input is the client's problem: it never reads as a server error in the log.
      assert.deepEqual(linesAt(answer.logLines, 'ERROR'), []);
      assert.equal(answer.status, row.status, answer.body.slice(0, 300));
      if (row.code === null) assert.equal(answer.code, undefined, answer.body.slice(0, 300));
      else assert.equal(answer.code, row.code, answer.body.slice(0, 300));
    });
  }

  it('never answers 5xx or runtime text, whatever the request bytes, headers, method and path', async () => {
    const headerName = fc.oneof(
      fc.constantFrom(
        ...PROTOTYPE_NAMES,
        'Content-Type',
        'Accept',
        'Mcp-Session-Id',
        'MCP-Protocol-Version',
        'Mcp-Method',
        'Mcp-Name',
        'Origin',
        'Content-Length',
      ),
      fc.string({ maxLength: 12 }),
    );
    const headerValue = fc.oneof(
      fc.constantFrom(
        'application/json',
        'application/json, text/event-stream',
        '2026-07-28',
        '2025-03-26',
        'tools/call',
        '=?base64?Zm9v?=',
      ),
      fc.string({ maxLength: 40 }),
    );
    const body = fc.oneof(
      fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes)),
      fc.json({ maxDepth: 6 }).map((text) => Buffer.from(text)),
      fc
        .record({
          id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
          method: fc.oneof(
            fc.constantFrom('tools/call', 'tools/list', 'initialize', 'prompts/get', ...PROTOTYPE_NAMES),
            fc.string(),
          ),
          params: fc.object({ maxDepth: 3 }),
        })
        .map((message) => Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }))),
    );
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.array(fc.tuple(headerName, fc.array(headerValue, { minLength: 1, maxLength: 2 })), {
          maxLength: 6,
        }),
        fc.constantFrom('POST', 'GET', 'DELETE', 'PUT', 'OPTIONS', 'post'),
        fc.oneof(
          fc.constant(ENDPOINT_PATH),
          fc.constant(`${ENDPOINT_PATH}/`),
          fc.string({ maxLength: 30 }).map((p) => `/${p}`),
        ),
        fc.boolean(),
        async (bytes, headers, httpMethod, path, base64) => {
          const multiValueHeaders = Object.create(null) as Record<string, string[]>;
          for (const [name, name2] of Object.entries(POST_HEADERS)) multiValueHeaders[name] = [name2];
          for (const [name, values] of headers) multiValueHeaders[name] = values;
          const event = restEvent({
            httpMethod,
            path,
            headers: {},
            multiValueHeaders,
            body: base64 ? bytes.toString('base64') : bytes.toString('latin1'),
            isBase64Encoded: base64,
          });
          const answer = await invoke(event);
          assert.ok(answer.status < 500, `${answer.status} ${answer.body.slice(0, 200)}`);
          assert.doesNotMatch(answer.body, RUNTIME_TEXT);
          assert.deepEqual(linesAt(answer.logLines, 'ERROR'), []);
        },
      ),
      { numRuns: 300, seed: 20261203 },
    );
  });
});
