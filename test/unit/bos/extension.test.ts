import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { JsonObject, JsonRpcNotification, McpRequestContext } from '../../../lambda/mcp/types/index.js';
import {
  createSourceResultNotifier,
  negotiatesSourceResults,
  sourceResultsCapability,
  structuredText,
} from '../../../lambda/bos/extension/index.js';

const CONTRACT = new URL('../../../../shared/contract/bos-source-results-v1.txt', import.meta.url);

/** A request context with overrides; only the fields negotiation reads matter here. */
function requestContext(overrides: {
  meta?: JsonObject;
  accept?: string[];
  id?: unknown;
}): McpRequestContext {
  const accepted = overrides.accept ?? ['application/json', 'text/event-stream'];
  return {
    shape: 'sessionful',
    protocolVersion: '2025-11-25',
    requestId: ('id' in overrides ? overrides.id : 'search-1') as string,
    signal: new AbortController().signal,
    meta: overrides.meta ?? {},
    accepts: (type) => accepted.includes(type),
    clientCapabilities: {},
  };
}

const optIn = (value: unknown): JsonObject =>
  ({
    'io.modelcontextprotocol/clientCapabilities': { experimental: { 'bos/source-results/v1': value } },
  }) as JsonObject;

describe('bos/source-results/v1 negotiation (contract §2)', () => {
  it('streams with an object opt-in, text/event-stream in Accept and a string or integer id', () => {
    assert.equal(negotiatesSourceResults(requestContext({ meta: optIn({}) })), true);
    assert.equal(negotiatesSourceResults(requestContext({ meta: optIn({ any: 1 }), id: 7 })), true);
  });

  it('does not stream for a Boolean, array or null opt-in', () => {
    for (const value of [true, false, [], null, 'yes', 1]) {
      assert.equal(negotiatesSourceResults(requestContext({ meta: optIn(value) })), false, String(value));
    }
  });

  it('does not stream without the opt-in, even when Accept lists text/event-stream', () => {
    assert.equal(negotiatesSourceResults(requestContext({})), false);
    const elsewhere = { experimental: { 'bos/source-results/v1': {} } } as JsonObject;
    assert.equal(negotiatesSourceResults(requestContext({ meta: elsewhere })), false);
  });

  it('does not stream when Accept does not list text/event-stream', () => {
    assert.equal(
      negotiatesSourceResults(requestContext({ meta: optIn({}), accept: ['application/json'] })),
      false,
    );
  });

  it('does not stream for a null or fractional id', () => {
    assert.equal(negotiatesSourceResults(requestContext({ meta: optIn({}), id: null })), false);
    assert.equal(negotiatesSourceResults(requestContext({ meta: optIn({}), id: 1.5 })), false);
  });

  it('advertises pageSize 100, maxConcurrentSources 8 and the configured contract URI', () => {
    assert.deepEqual(sourceResultsCapability(), {
      'bos/source-results/v1': {
        pageSize: 100,
        maxConcurrentSources: 8,
        contractUri: 'https://dfsm.ai/apps/bos/source-results-v1.html',
      },
    });
    assert.equal(
      sourceResultsCapability('https://example.test/c.html')['bos/source-results/v1']?.contractUri,
      'https://example.test/c.html',
    );
  });
});

const context = {
  context_handle: 'DISCOVERED_CONTEXT_HANDLE',
  organization_name: 'Example Organization',
  application_name: 'Example Application',
  installation_name: 'Example Installation',
  role_label: 'Example Role',
  is_default: true,
};

describe('source notifications (contract §3–§5)', () => {
  it('serialises page, complete and error frames byte for byte as the contract examples', (t) => {
    let contract: string;
    try {
      contract = readFileSync(CONTRACT, 'utf8');
    } catch {
      t.skip('../shared/contract is absent; cannot compare with the contract examples');
      return;
    }
    const examples = [...contract.matchAll(/^data: (\{"jsonrpc":"2\.0","method".*)$/gm)].map((m) => m[1]);
    assert.equal(examples.length, 3);
    const sent: JsonRpcNotification[] = [];
    const notify = createSourceResultNotifier('search-1', context, (n) => sent.push(n));
    const exampleRecord = (JSON.parse(examples[0] ?? '{}') as { params: { records: unknown[] } }).params
      .records;
    const demo = { source_type: 'example', source_identity: 'demo-source' };
    notify({ status: 'page', source: demo, pageIndex: 1, records: exampleRecord });
    notify({ status: 'complete', source: demo, pageIndex: 1 });
    notify({
      status: 'error',
      source: { source_type: 'example', source_identity: 'other-demo-source' },
      pageIndex: 0,
      code: 'source_timeout',
    });
    assert.deepEqual(
      sent.map((n) => JSON.stringify(n)),
      examples,
    );
  });

  it('numbers frames 1..N across sources and sends terminals with no records', () => {
    const sent: JsonRpcNotification[] = [];
    const notify = createSourceResultNotifier(42, context, (n) => sent.push(n));
    const a = { source_type: 't', source_identity: 'a' };
    notify({ status: 'page', source: a, pageIndex: 1, records: [{}] });
    notify({ status: 'complete', source: a, pageIndex: 1, records: [{}] });
    notify({ status: 'complete', source: { source_type: 't', source_identity: 'b' }, pageIndex: 0 });
    assert.deepEqual(
      sent.map((n) => [n.params?.requestId, n.params?.sequence, n.params?.records]),
      [
        [42, 1, [{}]],
        [42, 2, []],
        [42, 3, []],
      ],
    );
  });
});

describe('page origin', () => {
  it('marks a page answered from a baseline or a delta in its _meta, after the context, and leaves live pages as they were', () => {
    const sent: JsonRpcNotification[] = [];
    const notify = createSourceResultNotifier('r', context, (n) => sent.push(n));
    const a = { source_type: 't', source_identity: 'a' };
    notify({ status: 'page', source: a, pageIndex: 1, records: [], origin: 'cache_baseline' });
    notify({ status: 'page', source: a, pageIndex: 2, records: [], origin: 'source_delta' });
    notify({ status: 'page', source: a, pageIndex: 3, records: [] });
    notify({ status: 'complete', source: a, pageIndex: 3 });
    assert.deepEqual(
      sent.map((n) => [Object.keys(n.params ?? {}).at(-1), n.params?._meta]),
      [
        ['_meta', { 'bos/page_origin': 'cache_baseline' }],
        ['_meta', { 'bos/page_origin': 'source_delta' }],
        ['context', undefined],
        ['context', undefined],
      ],
    );
  });
});

describe('result text block', () => {
  it('writes structuredContent as the contract final frame does', (t) => {
    let contract: string;
    try {
      contract = readFileSync(CONTRACT, 'utf8');
    } catch {
      t.skip('../shared/contract is absent; cannot compare with the contract final frame');
      return;
    }
    const line = /^data: (\{"jsonrpc":"2\.0","id".*)$/m.exec(contract)?.[1] ?? '{}';
    const frame = JSON.parse(line) as {
      result: { content: { text: string }[]; structuredContent: JsonObject };
    };
    assert.equal(structuredText(frame.result.structuredContent), frame.result.content[0]?.text);
  });

  it('escapes non-ASCII and keeps separators inside strings untouched', () => {
    const value = { 'a,b': 'x: "y", z', name: 'Zoë 😀', n: [1, 2] };
    const text = structuredText(value);
    assert.equal(text, '{"a,b": "x: \\"y\\", z", "name": "Zo\\u00eb \\ud83d\\ude00", "n": [1, 2]}');
    assert.deepEqual(JSON.parse(text), value);
  });
});
