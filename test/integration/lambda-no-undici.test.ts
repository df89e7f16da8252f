/**
 * The Lambda path never loads Node's undici. In Node.js the globals `Request`, `Response`, `Headers`, `fetch`
 * and `FormData` are undici's, loaded on first touch for ~45 ms of CPU, a fifth of a cold start
 * (docs/mcp-runtime.md, "HTTP messages"). The platform bundle runs under the real runtime client on the local
 * stack with a preload that turns each of those globals into a tripwire (it logs the touch with a stack, then
 * throws) and watches `process.moduleLoadList` for undici loaded any other way (an ESM import of `node:http`
 * does it: lib/builtin-imports.ts); a session-ful `initialize`, a JSON `tools/call` and an SSE `tools/call`
 * must all succeed without tripping one.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { defaultNodePath } from '../../local/runtime-api/index.js';
import { openSession, optInMeta, post, startBosStack, toolCall } from '../helpers/bos-stack.js';
import type { BosStack } from '../helpers/bos-stack.js';

const MARK = 'undici-tripwire';
const GUARDED = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'MessageEvent',
  'CloseEvent',
  'WebSocket',
  'EventSource',
];

/** The preload, as a data: URL so the runtime's Node 22 needs no file or loader for it. */
const TRIPWIRE = `data:text/javascript,${encodeURIComponent(`
for (const name of ${JSON.stringify(GUARDED)}) {
  // \`in\` and \`delete\` leave Node's lazy global unmaterialised; reading its descriptor or redefining it in
  // place would load undici right here.
  if (!(name in globalThis)) continue;
  delete globalThis[name];
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get() {
      const at = (new Error().stack ?? '').split('\\n').slice(2, 9).map((l) => l.trim()).join(' < ');
      process.stderr.write('${MARK}: ' + name + ' touched at ' + at + '\\n');
      throw new Error('${MARK}: ' + name);
    },
  });
}
// Undici also loads without a global being touched (an ESM import of node:http reads its lazy WebSocket
// export): watch the loaded-module list too.
const poll = setInterval(() => {
  if (!process.moduleLoadList.some((m) => m.endsWith('internal/deps/undici/undici'))) return;
  process.stderr.write('${MARK}: undici loaded (process.moduleLoadList)\\n');
  clearInterval(poll);
}, 5);
poll.unref();
process.stderr.write('${MARK}: armed\\n');
`)}`;

const touches = (lines: readonly string[]): string[] =>
  lines.filter((line) => line.includes(`${MARK}:`) && !line.includes(`${MARK}: armed`));

describe('the Lambda path without undici', { timeout: 60_000 }, () => {
  it('has a tripwire that reports a touch of the undici globals and any load of undici', () => {
    // Prepare + Act: the same preload in a bare Node 22 that builds a Response.
    const run = spawnSync(
      defaultNodePath(),
      ['--import', TRIPWIRE, '-e', "try { new Response('x') } catch {}"],
      { encoding: 'utf8', timeout: 10_000 },
    );
    const viaImport = spawnSync(
      defaultNodePath(),
      [
        '--import',
        TRIPWIRE,
        '--input-type=module',
        '-e',
        "await import('node:http'); await new Promise((r) => setTimeout(r, 50));",
      ],
      { encoding: 'utf8', timeout: 10_000 },
    );
    // Assess
    assert.match(run.stderr, /undici-tripwire: armed/);
    assert.match(run.stderr, /undici-tripwire: Response touched at/);
    assert.match(viaImport.stderr, /undici-tripwire: undici loaded/);
  });

  describe('through the platform bundle under the runtime client', () => {
    let bos: BosStack;
    before(async () => {
      bos = await startBosStack({
        name: 'no-undici',
        poolSize: 1,
        env: { NODE_OPTIONS: `--import=${TRIPWIRE}` },
      });
    });
    after(() => bos?.close());

    it('answers initialize, a JSON tools/call and an SSE tools/call without touching undici', async () => {
      // Prepare
      const token = bos.token('dev-user');
      // Act
      const exchange = async () => {
        const { sessionId, result } = await openSession(bos.url, token);
        const json = await post(bos.url, { token, sessionId, body: toolCall(2, 'bos_list_contexts', {}) });
        const jsonText = await json.text();
        const sse = await post(bos.url, {
          token,
          sessionId,
          body: toolCall(3, 'search_people', { query: 'a' }, optInMeta()),
        });
        return { result, json, jsonText, sse, sseText: await sse.text() };
      };
      const outcome = await exchange().catch((error: unknown) => error);
      // The module-list watch polls every 5 ms: give it time to report a late load.
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Assess: the preload was loaded and nothing tripped it (checked first: a touch also fails the calls)…
      assert.ok(
        bos.lines.some((line) => line.includes(`${MARK}: armed`)),
        'the runtime process loaded the tripwire preload',
      );
      assert.deepEqual(touches(bos.lines), []);
      // …and the calls worked.
      if (outcome instanceof Error) throw outcome;
      const { result, json, jsonText, sse, sseText } = outcome as Awaited<ReturnType<typeof exchange>>;
      assert.equal(typeof result.protocolVersion, 'string');
      assert.equal(json.status, 200);
      assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
      assert.match(jsonText, /"contexts"/);
      assert.equal(sse.status, 200);
      assert.match(sse.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.match(sseText, /notifications\/bos\/source_result/);
      assert.match(sseText, /"id":3,"result"/);
    });
  });
});
