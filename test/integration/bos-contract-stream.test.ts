/**
 * Contract suite for `bos/source-results/v1` (shared/contract/bos-source-results-v1.txt) through the whole
 * local stack: the platform entry bundled as CDK bundles it, run under AWS's runtime client, sessions in
 * DynamoDB Local, tokens from the local issuer, every request through the REST v1 streaming front. Test names
 * cite the clause (§section) they check. This file: §3–§6 (frames, sequencing, paging, terminals, the
 * final result); `bos-contract` has §1–§2. The demo sources run at a quarter of their latency
 * (`BOS_FIXTURE_LATENCY_SCALE`, honoured only off AWS); `acme-legacy` still hangs until its 1,500 ms timeout.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpHttpClient } from '../../client/index.js';
import { DEMO_PEOPLE_CONTEXT_HANDLE, DEMO_SALES_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import { CODES, executeArgs, PEOPLE_CONTEXT, PEOPLE_SOURCES } from '../helpers/bos-contract-fixture.js';
import type { BosStack } from '../helpers/bos-stack.js';
import { openSession, optInMeta, post, startBosStack, toolCall } from '../helpers/bos-stack.js';
import type { Message, ReadStream } from '../helpers/bos-stream.js';
import { operationResultOf, pairKey, provenanceKey, readStream } from '../helpers/bos-stream.js';
import { javaSuite } from '../helpers/java.js';

describe('bos/source-results/v1 through the local stack: §3–§6', javaSuite(600_000), () => {
  let bos: BosStack;
  let token: string;
  let sessionId: string;
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
    bos = await startBosStack({ name: 'bos-contract-stream', env: { BOS_FIXTURE_LATENCY_SCALE: '0.25' } });
    token = bos.token('dev-user');
    ({ sessionId } = await openSession(bos.url, token));
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

  describe('§3 parse the event stream', () => {
    it('§3 "Every JSON payload arrives in an SSE event: message frame"; comments carry only : bos/source-results/v1 or : keepalive', () => {
      for (const read of [execute, direct]) {
        // readStream's strict parser already refused any other field or event name.
        const comments = read.frames.filter((f) => f.kind === 'comment').map((f) => f.text);
        assert.ok(comments.includes('bos/source-results/v1'));
        for (const comment of comments) assert.match(comment, /^(bos\/source-results\/v1|keepalive)$/);
        assert.equal(read.frames.filter((f) => f.kind === 'message').length, read.messages.length);
      }
    });

    it('§3 "The JSON-RPC notification method is notifications/bos/source_result", params in the contract\'s key order with the context', () => {
      for (const message of execute.messages.slice(0, -1)) {
        assert.equal(message.method, 'notifications/bos/source_result');
        assert.equal(message.id, undefined);
        const params = message.params;
        assert.ok(params !== undefined);
        const keys = ['requestId', 'sequence', 'pageIndex', 'source', 'records', 'status'];
        assert.deepEqual(Object.keys(params), [
          ...keys,
          ...(params.status === 'error' ? ['error'] : []),
          'context',
        ]);
        assert.deepEqual(params.requestId, 'search-1');
        assert.deepEqual(params.context, PEOPLE_CONTEXT);
      }
    });

    it('§3 "Each FederatedRecord contains record_ref, ... and a nonempty sources array"; each provenance entry has its seven fields', () => {
      const recordKeys = [
        'record_ref',
        'display_name',
        'email',
        'phone',
        'lifecycle',
        'sources',
        'identity_match',
        'attributes',
      ];
      const provenanceKeys = [
        'source_type',
        'source_identity',
        'external_id',
        'record_type',
        'observed_at',
        'capabilities',
        'version',
      ];
      const pageRecords = execute.notifications.flatMap((n) => n.records);
      const finalRecords = operationResultOf(execute.final?.result ?? assert.fail('no final')).records;
      for (const record of [...pageRecords, ...finalRecords]) {
        assert.deepEqual(Object.keys(record).sort(), [...recordKeys].sort());
        assert.ok(record.sources.length > 0);
        for (const entry of record.sources)
          assert.deepEqual(Object.keys(entry).sort(), [...provenanceKeys].sort());
      }
    });
  });

  describe('§4 track sequencing and paging', () => {
    it('§4 "sequence" runs 1..N over the invocation without gaps or duplicates', () => {
      for (const read of [execute, direct])
        assert.deepEqual(
          read.notifications.map((n) => n.sequence),
          read.notifications.map((_, index) => index + 1),
        );
    });

    it('§4 "Each source\'s page indexes begin at 1 and advance by one for each page"', () => {
      for (const [key, pages] of execute.pages)
        assert.deepEqual(
          pages.map((p) => p.pageIndex),
          pages.map((_, index) => index + 1),
          key,
        );
    });

    it('§4 "exactly one complete or error follows that source\'s pages", naming its last pageIndex', () => {
      assert.deepEqual([...execute.terminals.keys()].sort(), PEOPLE_SOURCES);
      for (const [key, terminals] of execute.terminals) {
        assert.equal(terminals.length, 1, key);
        const terminal = terminals[0];
        const pages = execute.pages.get(key) ?? [];
        assert.equal(terminal?.pageIndex, pages.length, key);
        const position = execute.notifications.indexOf(terminal ?? assert.fail());
        for (const page of pages)
          assert.ok(execute.notifications.indexOf(page) < position, `${key}: pages precede the terminal`);
      }
    });

    it('§4 "An empty successful source emits complete with pageIndex: 0 and records: []" (acme-archive)', () => {
      assert.equal(execute.pages.has('archive/acme-archive'), false);
      const [archive] = execute.terminals.get('archive/acme-archive') ?? [];
      assert.equal(archive?.status, 'complete');
      assert.equal(archive?.pageIndex, 0);
      assert.deepEqual(archive?.records, []);
    });

    it('§4 "Page size is a bound": no page over 100 records; acme-directory\'s 500-record provider pages are split', () => {
      for (const page of [...execute.notifications, ...direct.notifications])
        assert.ok(page.records.length <= 100);
      assert.ok((execute.pages.get('directory/acme-directory')?.length ?? 0) >= 12);
    });

    it('§4 "Records are validated against the authorized source before publication": page provenance names the page\'s source', () => {
      for (const page of execute.notifications)
        for (const record of page.records)
          for (const entry of record.sources) assert.equal(pairKey(entry), pairKey(page.source));
    });

    it('§4 "notifications from different sources can interleave": pages of several sources arrive before the final frame', () => {
      assert.ok(execute.pages.size >= 4);
      const firstTerminal = execute.notifications.findIndex((n) => n.status !== 'page' && n.pageIndex > 0);
      const sourcesBefore = new Set(
        execute.notifications.slice(0, firstTerminal).map((n) => pairKey(n.source)),
      );
      assert.ok(
        sourcesBefore.size >= 2,
        'pages of at least two sources before the first paged source finishes',
      );
    });
  });

  describe('§5 terminal statuses and the final response', () => {
    it('§5 "A source error carries records: [] and one of" the five codes; acme-legacy times out after its delivered page', () => {
      const errors = [...execute.terminals.values()].flat().filter((t) => t.status === 'error');
      assert.ok(errors.length >= 1);
      for (const error of errors) {
        assert.deepEqual(error.records, []);
        assert.ok(CODES.includes(error.error?.code ?? ''));
      }
      const [legacy] = execute.terminals.get('legacy/acme-legacy') ?? [];
      assert.deepEqual(legacy?.error, { code: 'source_timeout' });
      assert.ok((legacy?.pageIndex ?? 0) >= 1, 'the error follows previously delivered pages');
    });

    it('§5 "One final event: message follows all source terminal statuses": the original id, a result, no method', () => {
      for (const [read, id] of [
        [execute, 'search-1'],
        [direct, 41],
      ] as const) {
        const final = read.final;
        assert.deepEqual(final?.id, id);
        assert.equal(final?.method, undefined);
        assert.ok(final?.result !== undefined);
        assert.equal(read.messages.filter((m) => m.id !== undefined).length, 1);
      }
    });

    it('§5 "For bos_execute ... records are under result.structuredContent.result.result", context at structuredContent.context and _meta["bos/context"]', () => {
      const result = execute.final?.result ?? assert.fail('no final');
      const structured = result.structuredContent as Record<string, unknown>;
      assert.equal(structured['contract_version'], 'bos-identity-mcp/v2');
      assert.deepEqual(structured['context'], PEOPLE_CONTEXT);
      assert.deepEqual(result._meta?.['bos/context'], PEOPLE_CONTEXT);
      const inner = structured['result'] as { result: unknown[]; metadata: { result_count: number } };
      assert.ok(Array.isArray(inner.result) && inner.result.length > 0);
      assert.equal(inner.metadata.result_count, inner.result.length);
    });

    it('§5 "For direct federated read tools, records are under result.structuredContent.result and metadata under result.structuredContent.metadata"', () => {
      const structured = direct.final?.result?.structuredContent ?? assert.fail('no final');
      assert.ok(Array.isArray(structured.result) && structured.result.length > 0);
      assert.equal(structured.metadata?.result_count, structured.result.length);
    });

    it('§5 "Any source failure sets metadata.completeness: partial, isError: true, and metadata.source_errors"', () => {
      for (const read of [execute, direct]) {
        const result = read.final?.result ?? assert.fail('no final');
        const { metadata } = operationResultOf(result);
        assert.equal(result.isError, true);
        assert.equal(metadata.completeness, 'partial');
        assert.deepEqual(metadata.source_errors, [
          {
            source: { source_type: 'legacy', source_identity: 'acme-legacy' },
            error: { code: 'source_timeout' },
          },
        ]);
      }
    });

    it('§5 "The final federated result includes all successfully delivered records": every delivered provenance entry exactly once, the timed-out source\'s included', () => {
      const delivered = execute.notifications.flatMap((n) =>
        n.records.flatMap((r) => r.sources.map(provenanceKey)),
      );
      const final = operationResultOf(execute.final?.result ?? assert.fail()).records.flatMap((r) =>
        r.sources.map(provenanceKey),
      );
      assert.equal(new Set(final).size, final.length);
      assert.deepEqual(new Set(final), new Set(delivered));
      assert.ok(final.some((key) => key.startsWith('legacy/acme-legacy/')));
    });

    it('§5 "A complete empty result has complete metadata and no source failures" (Sales context, no match)', async () => {
      const read = await readStream(
        await call(
          toolCall(
            7,
            'bos_execute',
            executeArgs(DEMO_SALES_CONTEXT_HANDLE, 'search_people', { query: 'zzzz-no-one' }),
            optInMeta(),
          ),
        ),
      );
      const result = read.final?.result ?? assert.fail('no final');
      const { records, metadata } = operationResultOf(result);
      assert.deepEqual(records, []);
      assert.equal(result.isError, false);
      assert.equal(metadata.completeness, 'complete');
      assert.deepEqual(metadata.source_errors, []);
      assert.deepEqual(
        read.notifications.map((n) => [n.status, n.pageIndex]),
        [['complete', 0]],
      );
    });

    it('§5 "errors before source execution may produce a final error response with no source notifications" (unknown handle)', async () => {
      const response = await call(
        toolCall(
          8,
          'bos_execute',
          executeArgs('ctx_00000000000000000000000000000000', 'list_people', {}),
          optInMeta(),
        ),
      );
      // §2 "inspect HTTP status and Content-Type before parsing": the refusal may come before the stream starts.
      const messages = /^text\/event-stream/.test(response.headers.get('content-type') ?? '')
        ? (await readStream(response)).messages
        : [(await response.json()) as Message];
      assert.equal(response.status, 200);
      assert.equal(messages.length, 1, 'no source notifications');
      assert.equal(messages[0]?.id, 8);
      assert.equal(messages[0]?.error?.code, -32602);
    });

    it('§6 checklist: the client library confirms the outcome with no violations and replaces provisional pages by the final records', async () => {
      const client = new McpHttpClient({ url: bos.url, token });
      const outcome = await client.callTool('search_people', { query: 'a' }, { stream: true });
      await client.close();
      assert.ok(outcome.confirmed);
      assert.deepEqual(outcome.violations, []);
      assert.equal(outcome.path, 'direct');
      assert.equal(outcome.completeness, 'partial');
      assert.deepEqual(outcome.sourceErrors, [
        { source: { source_type: 'legacy', source_identity: 'acme-legacy' }, code: 'source_timeout' },
      ]);
      assert.equal(outcome.records?.length, outcome.resultCount);
      assert.ok(new Set(outcome.observedPages.map((p) => pairKey(p.source))).size >= 4);
    });
  });
});
