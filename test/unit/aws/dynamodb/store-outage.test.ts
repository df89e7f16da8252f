/**
 * DynamoDB-backed stores wrapped with `reportingOutages` turn "DynamoDB cannot answer" into the runtime's
 * `StoreUnavailableError` (the one outage answer), and let ordinary failures through unchanged.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import {
  createDynamoDbClient,
  DynamoDbRequestStateStore,
  DynamoDbStreamStore,
  isStoreOutage,
  reportingOutages,
  StoreRequestError,
} from '../../../../lambda/aws/index.js';
import { StoreUnavailableError } from '../../../../lambda/mcp/index.js';

async function closedPort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  assert.ok(address !== null && typeof address === 'object');
  probe.close();
  await once(probe, 'close');
  return address.port;
}

describe('store outages from DynamoDB-backed stores', () => {
  it('a stream store and a request-state store on a closed port reject with StoreUnavailableError', async () => {
    // Prepare
    const client = createDynamoDbClient({ endpoint: `http://127.0.0.1:${await closedPort()}` });
    const streams = reportingOutages('stream', new DynamoDbStreamStore({ client, tableName: 'streams' }));
    const states = reportingOutages('request-state', new DynamoDbRequestStateStore(client, 'streams'));
    // Act + Assess
    for (const [store, call] of [
      ['stream', () => streams.createStream('s-1')],
      ['request-state', () => states.take('k', Date.now())],
    ] as const) {
      await assert.rejects(call(), (error) => {
        assert.ok(error instanceof StoreUnavailableError, String(error));
        assert.equal(error.store, store);
        assert.ok(error.cause instanceof Error);
        return true;
      });
    }
  });

  it('classifies server faults, throttling and network codes as outages, and nothing else', () => {
    const named = (name: string, extra: object = {}) => Object.assign(new Error('x'), { name }, extra);
    assert.equal(isStoreOutage(named('ThrottlingException', { $fault: 'client' })), true);
    assert.equal(isStoreOutage(named('InternalServerError', { $fault: 'server' })), true);
    assert.equal(isStoreOutage(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })), true);
    assert.equal(isStoreOutage(named('ConditionalCheckFailedException', { $fault: 'client' })), false);
    assert.equal(isStoreOutage(Object.assign(new Error('bad'), { code: 'corrupt_item' })), false);
    assert.equal(isStoreOutage('not an error'), false);
  });

  it('turns a request DynamoDB refused into StoreRequestError, without DynamoDB’s text in its message', async () => {
    const refusal = Object.assign(
      new Error('One or more parameter values were invalid: key too long: aaaa'),
      {
        name: 'ValidationException',
        $fault: 'client',
        $metadata: { httpStatusCode: 400 },
      },
    );
    const store = reportingOutages('stream', { fails: () => Promise.reject(refusal) });
    await assert.rejects(store.fails(), (error) => {
      assert.ok(error instanceof StoreRequestError);
      assert.ok(!(error instanceof StoreUnavailableError));
      assert.equal(error.message, 'stream store refused the request (ValidationException)');
      assert.equal(error.cause, refusal);
      return true;
    });
  });

  it('passes ordinary failures and results through unchanged', async () => {
    const failure = new Error('event too large');
    const store = reportingOutages('stream', {
      fails: () => Promise.reject(failure),
      answers: (n: number) => Promise.resolve(n + 1),
      sync: () => 3,
    });
    await assert.rejects(store.fails(), (error) => error === failure);
    assert.equal(await store.answers(1), 2);
    assert.equal(store.sync(), 3);
  });
});
