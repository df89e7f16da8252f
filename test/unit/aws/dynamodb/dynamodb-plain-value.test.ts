import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromAttributeMap, toAttributeMap } from '../../../../lambda/aws/index.js';

describe('plain JSON values as DynamoDB attributes', () => {
  it('round-trips strings, numbers, booleans, null, lists and maps', () => {
    const item = {
      pk: 'CONTEXT#ctx_1',
      sk: 'CONTEXT',
      is_default: false,
      source_timeout_ms: 1500,
      ratio: 0.25,
      note: null,
      operations: ['search_people', 'get_person'],
      options: { preset: 'demo', nested: { list: [1, 'two', true] } },
    };
    const attributes = toAttributeMap(item);
    assert.deepEqual(attributes['operations'], { L: [{ S: 'search_people' }, { S: 'get_person' }] });
    assert.deepEqual(attributes['source_timeout_ms'], { N: '1500' });
    assert.deepEqual(JSON.parse(JSON.stringify(fromAttributeMap(attributes))), item);
  });

  it('keeps a __proto__ key as data and drops undefined attributes', () => {
    const value = JSON.parse('{"pk":"p","sk":"s","__proto__":"x"}') as Record<string, unknown>;
    const attributes = toAttributeMap({ ...value, gone: undefined });
    assert.deepEqual(Object.keys(attributes).sort(), ['__proto__', 'pk', 'sk']);
    assert.equal(fromAttributeMap(attributes)['__proto__'], 'x');
  });

  it('refuses values JSON cannot hold', () => {
    assert.throws(() => toAttributeMap({ n: Number.NaN }), TypeError);
    assert.throws(() => toAttributeMap({ f: () => 1 }), TypeError);
    assert.throws(() => fromAttributeMap({ b: { B: new Uint8Array([1]) } }), TypeError);
  });
});
