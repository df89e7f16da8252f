/**
 * The client against the real BOS platform app (runtime, engine, fixture sources) in-process: the
 * client's fetch is bound to `platform.handle`, so every byte goes through the real server code.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { McpHttpClient, type ProvisionalPage } from '../../../client/index.js';
import { ENDPOINT, createHarness, type Harness } from '../bos/platform-harness.js';

describe('client against the real BOS platform', () => {
  let harness: Harness;
  const clientFor = (protocol: 'sessionful'): McpHttpClient =>
    new McpHttpClient({
      url: ENDPOINT,
      protocol,
      token: harness.auth.tokens['dev-user'],
      // The client reads the platform's web `Response`, as it would off the network.
      fetch: (input, init) => harness.platform.handle(new Request(input, init)),
    });
  before(async () => {
    harness = await createHarness();
  });

  // Session-ful only for now: the runtime still answers 2026-07-28 with -32022 (not yet supported).
  for (const protocol of ['sessionful'] as const)
    it(`streams bos_execute search_people to a confirmed result without violations (${protocol})`, async () => {
      const client = clientFor(protocol);
      const info = await client.discover();
      assert.equal(info.sourceResults?.pageSize, 100);
      const contexts = await client.callTool('bos_list_contexts', {});
      assert.equal(contexts.confirmed, true);
      const structured = contexts.confirmed ? contexts.result?.structuredContent : undefined;
      const list = (structured as { contexts?: { context_handle: string }[] } | undefined)?.contexts ?? [];
      const handle = list[0]?.context_handle;
      assert.ok(handle !== undefined, JSON.stringify(structured));
      const pages: ProvisionalPage[] = [];
      const outcome = await client.callTool(
        'bos_execute',
        { context_handle: handle, tool_name: 'search_people', arguments: { query: 'a' } },
        { stream: true, onPage: (p) => pages.push(p) },
      );
      await client.close();
      assert.equal(outcome.confirmed, true);
      if (!outcome.confirmed) return;
      assert.equal(outcome.delivery, 'sse');
      assert.deepEqual(outcome.violations, []);
      assert.equal(outcome.path, 'execute');
      assert.ok(pages.length > 0);
      assert.equal(outcome.records?.length, outcome.resultCount);
      assert.ok(outcome.sources.every((s) => s.terminal !== undefined));
    });
});
