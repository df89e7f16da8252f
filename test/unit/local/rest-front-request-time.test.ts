/**
 * The REST front bounds the time a client may take to send its request: a connection whose body never
 * arrives is answered 408 and closed once `requestTimeoutMs` has passed (default: API Gateway's 5-minute
 * Regional idle timeout), instead of staying open for ever. The function is never invoked for it.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { startRestFront } from '../../../local/rest-front/index.js';

describe('REST front request time', () => {
  it('answers 408 and closes a connection whose body never arrives', async () => {
    let invoked = 0;
    const front = await startRestFront({
      requestTimeoutMs: 600,
      invoker: {
        invoke: () => {
          invoked += 1;
          return Promise.reject(new Error('not expected'));
        },
      },
    });
    try {
      const socket = connect(front.port, '127.0.0.1');
      await once(socket, 'connect');
      const received: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      socket.write(
        'POST /mcp/apps/bos/platform HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100\r\n\r\n{"jsonrpc":',
      );
      const started = Date.now();
      const closed = once(socket, 'close');
      const timer = setTimeout(() => socket.destroy(), 10_000);
      await closed;
      clearTimeout(timer);
      const elapsed = Date.now() - started;
      assert.ok(elapsed < 5000, `closed after ${elapsed} ms`);
      assert.match(Buffer.concat(received).toString('latin1'), /^HTTP\/1\.1 408 /);
      assert.equal(invoked, 0);
    } finally {
      await front.close();
    }
  });
});
