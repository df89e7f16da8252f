/**
 * Failure behaviour of DynamoDbSessionStore against real local sockets (no DynamoDB needed): a closed port
 * and a server that accepts connections but never answers must both become SessionStoreUnavailableError,
 * fast. The 5 s bound is the property the task asks for (a dead store answers 503 well within 5 s).
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { createDynamoDbClient, DynamoDbSessionStore } from '../../../../lambda/aws/index.js';
import { SessionStoreUnavailableError } from '../../../../lambda/mcp/index.js';

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  return address.port;
}

function storeAt(port: number): DynamoDbSessionStore {
  return new DynamoDbSessionStore({
    client: createDynamoDbClient({ endpoint: `http://127.0.0.1:${port}` }),
    tableName: 'sessions',
  });
}

describe('DynamoDbSessionStore when DynamoDB cannot answer', () => {
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => {
    // Accept and never answer: a hung endpoint.
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    if (silent.listening) {
      silent.close();
      await once(silent, 'close');
    }
  });

  it('throws SessionStoreUnavailableError for a closed port, keeping the cause', async () => {
    // Prepare: grab a free port, then close it so nothing listens there.
    const probe = createServer();
    const port = await listen(probe);
    probe.close();
    await once(probe, 'close');
    // Act + Assess
    await assert.rejects(storeAt(port).get('s-1'), (error) => {
      assert.ok(error instanceof SessionStoreUnavailableError);
      assert.ok(error.cause instanceof Error);
      return true;
    });
  });

  it('throws SessionStoreUnavailableError within 5 s for an endpoint that never answers', async () => {
    // Prepare
    const port = await listen(silent);
    const startedAt = Date.now();
    // Act
    const outcome = await storeAt(port)
      .put({ sessionId: 's-1', createdAt: 0, expiresAt: 1000, data: {} })
      .then(
        () => 'resolved',
        (error: unknown) => error,
      );
    const elapsedMs = Date.now() - startedAt;
    // Assess
    assert.ok(outcome instanceof SessionStoreUnavailableError);
    assert.ok(elapsedMs < 5000, `took ${elapsedMs} ms`);
  });
});
