/**
 * Contract suite for `bos/source-results/v1` (shared/contract/bos-source-results-v1.txt) through the whole
 * local stack: the platform entry bundled as CDK bundles it, run under AWS's runtime client, sessions in
 * DynamoDB Local, tokens from the local issuer, every request through the REST v1 streaming front. Test names
 * cite the clause (§section) they check. This file: §1 discovery and §2 negotiation; `bos-contract-stream`
 * has §3–§6. The demo sources run at a quarter of their latency
 * (`BOS_FIXTURE_LATENCY_SCALE`, honoured only off AWS); `acme-legacy` still hangs until its 1,500 ms timeout.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpHttpClient } from '../../client/index.js';
import { DEMO_PEOPLE_CONTEXT_HANDLE, DEMO_SALES_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import { executeArgs } from '../helpers/bos-contract-fixture.js';
import type { BosStack } from '../helpers/bos-stack.js';
import { openSession, optInMeta, post, startBosStack, toolCall } from '../helpers/bos-stack.js';
import type { Message, ReadStream } from '../helpers/bos-stream.js';
import { operationResultOf, readStream } from '../helpers/bos-stream.js';
import { javaSuite } from '../helpers/java.js';

describe('bos/source-results/v1 through the local stack: §1–§2', javaSuite(600_000), () => {
  let bos: BosStack;
  let token: string;
  let sessionId: string;
  let initializeResult: Record<string, unknown>;
  /** The contract's template: `bos_execute` → `list_people` in the People context, id "search-1". */
  let execute: ReadStream;
  /** A direct `search_people` call with an integer id. */
  let direct: ReadStream;

  const call = (body: unknown, extra: { accept?: string; token?: string | null } = {}) =>
    post(bos.url, {
      body,
      sessionId,
      ...(extra.token === null ? {} : { token: extra.token ?? token }),
      ...(extra.accept === undefined ? {} : { accept: extra.accept }),
    });

  before(async () => {
    bos = await startBosStack({ name: 'bos-contract', env: { BOS_FIXTURE_LATENCY_SCALE: '0.25' } });
    token = bos.token('dev-user');
    ({ sessionId, result: initializeResult } = await openSession(bos.url, token));
    execute = await readStream(
      await call(
        toolCall(
          'search-1',
          'bos_execute',
          executeArgs(DEMO_PEOPLE_CONTEXT_HANDLE, 'list_people', {}),
          optInMeta(),
        ),
      ),
    );
    direct = await readStream(await call(toolCall(41, 'search_people', { query: 'a' }, optInMeta())));
  });
  after(async () => {
    await bos?.close();
  });

  describe('§1 discover the extension', () => {
    const advertised = {
      pageSize: 100,
      maxConcurrentSources: 8,
      contractUri: 'https://dfsm.ai/apps/bos/source-results-v1.html',
    };

    it('§1 "inspect the initialize response": result.capabilities.experimental carries the object', () => {
      const capabilities = initializeResult['capabilities'] as { experimental?: Record<string, unknown> };
      assert.deepEqual(capabilities.experimental?.['bos/source-results/v1'], advertised);
    });

    it('§1 "Stateless clients inspect server/discover": the same object under capabilities.experimental', async () => {
      const client = new McpHttpClient({ url: bos.url, protocol: 'stateless', token });
      const info = await client.discover();
      assert.deepEqual(info.sourceResults, advertised);
      assert.deepEqual(
        (info.capabilities['experimental'] as Record<string, unknown>)['bos/source-results/v1'],
        advertised,
      );
    });

    it('§1 "Initialization stores no streaming preference": an opted-in initialize still gets JSON without a per-call opt-in', async () => {
      const opted = await openSession(bos.url, token, { experimental: { 'bos/source-results/v1': {} } });
      const response = await post(bos.url, {
        token,
        sessionId: opted.sessionId,
        body: toolCall(2, 'bos_execute', executeArgs(DEMO_SALES_CONTEXT_HANDLE, 'list_people', {})),
      });
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const message = (await response.json()) as Message;
      assert.equal(message.id, 2);
      assert.ok(message.result !== undefined);
    });
  });

  describe('§2 request streaming: the negotiation matrix', () => {
    it('§2 "If either streaming signal is absent" (no opt-in): the existing JSON response, same records as the stream', async () => {
      const response = await call(
        toolCall('search-1', 'bos_execute', executeArgs(DEMO_PEOPLE_CONTEXT_HANDLE, 'list_people', {})),
      );
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const message = (await response.json()) as Message;
      assert.equal(message.id, 'search-1');
      const streamed = execute.final?.result;
      assert.ok(message.result !== undefined && streamed !== undefined);
      assert.deepEqual(operationResultOf(message.result).records, operationResultOf(streamed).records);
    });

    it('§2 "A Boolean opt-in does not negotiate this extension"', async () => {
      const response = await call(
        toolCall(
          3,
          'bos_execute',
          executeArgs(DEMO_SALES_CONTEXT_HANDLE, 'list_people', {}),
          optInMeta(true),
        ),
      );
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.doesNotMatch(await response.text(), /notifications\/bos\/source_result/);
    });

    it('§2 "Both the request-local opt-in and an Accept media type of text/event-stream are required" (JSON-only Accept): the answer is the one without the opt-in', async () => {
      const args = executeArgs(DEMO_SALES_CONTEXT_HANDLE, 'list_people', {});
      const optedIn = await call(toolCall(4, 'bos_execute', args, optInMeta()), {
        accept: 'application/json',
      });
      const plain = await call(toolCall(4, 'bos_execute', args), { accept: 'application/json' });
      const [optedBody, plainBody] = [await optedIn.text(), await plain.text()];
      assert.doesNotMatch(optedIn.headers.get('content-type') ?? '', /event-stream/);
      assert.equal(optedIn.status, plain.status);
      assert.equal(optedIn.headers.get('content-type'), plain.headers.get('content-type'));
      assert.doesNotMatch(optedBody, /source_result/);
      assert.deepEqual(
        (JSON.parse(optedBody) as Message).error?.code,
        (JSON.parse(plainBody) as Message).error?.code,
      );
    });

    it('§2 "a non-null string or integer id" (null id): never a stream, the existing invalid-request answer', async () => {
      const args = executeArgs(DEMO_SALES_CONTEXT_HANDLE, 'list_people', {});
      const optedIn = await call(toolCall(null, 'bos_execute', args, optInMeta()));
      const plain = await call(toolCall(null, 'bos_execute', args));
      const [optedBody, plainBody] = [await optedIn.text(), await plain.text()];
      assert.doesNotMatch(optedIn.headers.get('content-type') ?? '', /event-stream/);
      assert.equal(optedIn.status, plain.status);
      assert.doesNotMatch(optedBody, /source_result|"result"/);
      assert.equal(optedBody, plainBody);
    });

    it('§2 opt-in object + SSE Accept + string id: a negotiated stream for bos_execute', () => {
      assert.equal(execute.status, 200);
      assert.ok(execute.notifications.length > 0);
      assert.deepEqual(execute.final?.id, 'search-1');
    });

    it('§2 "Use the same metadata placement for directly discovered tools": an integer id streams search_people', () => {
      assert.equal(direct.status, 200);
      assert.ok(direct.notifications.length > 0);
      assert.equal(direct.final?.id, 41);
    });

    it('§2 "A negotiated response has Content-Type: text/event-stream, Cache-Control: no-cache, and X-Accel-Buffering: no"', () => {
      for (const read of [execute, direct]) {
        assert.match(read.headers.get('content-type') ?? '', /^text\/event-stream(;\s*charset=utf-8)?$/i);
        assert.equal(read.headers.get('cache-control'), 'no-cache');
        assert.equal(read.headers.get('x-accel-buffering'), 'no');
      }
    });

    it('§2 "Authentication ... failures retain their existing HTTP/JSON-RPC semantics": 401 JSON, no stream', async () => {
      const response = await call(toolCall(5, 'search_people', { query: 'a' }, optInMeta()), { token: null });
      assert.equal(response.status, 401);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(((await response.json()) as Message).error?.code, -32011);
    });

    it('§2 "Other tools may emit only the final response": bos_list_contexts under opt-in', async () => {
      const read = await readStream(await call(toolCall(6, 'bos_list_contexts', {}, optInMeta())));
      assert.match(read.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.equal(read.notifications.length, 0);
      assert.equal(read.messages.length, 1);
      assert.equal(read.final?.id, 6);
    });

    it('§2 stateless 2026-07-28 ("A stateless response also adds resultType: complete"): a streamed call through the client library', async () => {
      const client = new McpHttpClient({ url: bos.url, protocol: 'stateless', token });
      const outcome = await client.callTool(
        'bos_execute',
        executeArgs(DEMO_SALES_CONTEXT_HANDLE, 'list_people', {}),
        { stream: true },
      );
      assert.equal(outcome.delivery, 'sse');
      assert.ok(outcome.confirmed);
      assert.deepEqual(outcome.violations, []);
      assert.equal(outcome.resultType, 'complete');
      assert.ok(outcome.observedPages.length >= 1);
    });
  });
});
