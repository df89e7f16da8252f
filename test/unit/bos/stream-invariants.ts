/**
 * The contract's stream rules as one reusable check (contract §3–§5): used by every streaming test so
 * each one verifies the whole grammar, not only the property it is named after.
 */
import assert from 'node:assert/strict';
import type { FinalResult, Message, SourceResultParams } from './sse-frames.js';
import { pairKey } from './sse-frames.js';

export const SOURCE_ERROR_CODES = [
  'source_timeout',
  'source_identity_mismatch',
  'provider_authorization_required',
  'rate_limited',
  'source_unavailable',
];

/** What a checked stream held, per source pair. */
export interface StreamSummary {
  notifications: SourceResultParams[];
  final: FinalResult;
  pages: Map<string, SourceResultParams[]>;
  terminals: Map<string, SourceResultParams>;
}

export function checkStream(messages: Message[], requestId: unknown, context: unknown): StreamSummary {
  assert.ok(messages.length >= 1, 'a stream carries at least the final frame');
  const last = messages.at(-1) as Message;
  // §5: one final frame, last, with the original id and no source-notification method.
  assert.deepEqual(last.id, requestId);
  assert.equal(last.method, undefined);
  assert.ok(last.result !== undefined, 'the final frame carries a result');
  const notifications = messages.slice(0, -1).map((message) => {
    assert.equal(message.method, 'notifications/bos/source_result');
    assert.equal(message.id, undefined);
    return message.params as SourceResultParams;
  });

  const pages = new Map<string, SourceResultParams[]>();
  const terminals = new Map<string, SourceResultParams>();
  notifications.forEach((params, index) => {
    assert.deepEqual(params.requestId, requestId, 'requestId is the call id');
    assert.equal(params.sequence, index + 1, 'sequence runs 1..N without gaps');
    assert.deepEqual(params.context, context);
    // Key order as in the contract's examples.
    const order = ['requestId', 'sequence', 'pageIndex', 'source', 'records', 'status'];
    if (params.status === 'error') order.push('error');
    assert.deepEqual(Object.keys(params), [...order, 'context']);
    const key = pairKey(params.source);
    assert.ok(!terminals.has(key), `${key}: nothing follows its terminal`);
    const seen = pages.get(key) ?? [];
    if (params.status === 'page') {
      assert.equal(params.pageIndex, seen.length + 1, `${key}: pageIndex runs 1..k`);
      assert.ok(params.records.length <= 100, `${key}: a page holds at most pageSize records`);
      assert.equal(params.error, undefined);
      for (const record of params.records) {
        for (const entry of record.sources)
          assert.equal(pairKey(entry), key, 'page records come from its source');
      }
      pages.set(key, [...seen, params]);
      return;
    }
    assert.deepEqual(params.records, [], `${key}: a terminal carries no records`);
    assert.equal(params.pageIndex, seen.length, `${key}: the terminal names the last pageIndex (0 if none)`);
    if (params.status === 'error') assert.ok(SOURCE_ERROR_CODES.includes(params.error?.code ?? ''));
    else assert.equal(params.error, undefined);
    terminals.set(key, params);
  });
  for (const key of pages.keys()) assert.ok(terminals.has(key), `${key}: exactly one terminal`);
  return { notifications, final: last.result, pages, terminals };
}
