/**
 * Every listener of the local stack is on loopback: DynamoDB Local (whose bundled server has no bind
 * option of its own) and, with the stack running as `npm start` runs it (providers included), every socket
 * the test process and its children listen on.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';
import type { DynamoDbLocal } from '../../local/dynamodb-local.js';
import { startStack } from '../../local/stack.js';
import type { LocalStack } from '../../local/stack.js';
import { javaSuite } from '../helpers/java.js';
import { isLoopback, listenersOf, processTree } from '../helpers/listeners.js';

describe('local stack listeners', javaSuite(300_000), () => {
  let db: DynamoDbLocal | undefined;
  let stack: LocalStack | undefined;
  after(async () => {
    await db?.stop();
    await stack?.close();
  });

  it('DynamoDB Local listens on 127.0.0.1 only', async () => {
    db = await startDynamoDbLocal();
    const pid = db.pid;
    assert.ok(pid !== undefined);
    const sockets = listenersOf(new Set([pid]));
    assert.ok(
      sockets.some((s) => s.port === db?.port),
      JSON.stringify(sockets),
    );
    for (const socket of sockets) assert.ok(isLoopback(socket.address), JSON.stringify(socket));
    await db.stop();
    db = undefined;
  });

  it('every socket of a running stack with its providers listens on loopback', async () => {
    stack = await startStack({
      bundleDir: '.local/test-bundles/local-loopback',
      poolSize: 1,
      providers: true,
      onFunctionLog: () => undefined,
    });
    const sockets = listenersOf(processTree(process.pid));
    process.stdout.write(
      `\nlistening sockets of the stack's processes:\n${sockets.map((s) => `  ${s.command} (pid ${s.pid}) ${s.address}:${s.port}`).join('\n')}\n`,
    );
    assert.ok(sockets.some((s) => s.port === stack?.port));
    assert.ok(
      sockets.some((s) => s.command === 'java'),
      'DynamoDB Local is among them',
    );
    for (const socket of sockets) assert.ok(isLoopback(socket.address), JSON.stringify(socket));
  });
});
