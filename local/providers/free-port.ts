/** A free TCP port on 127.0.0.1 for a child process that must be told its port (slapd). */
import { once } from 'node:events';
import { createServer } from 'node:net';

/** Binds port 0, reads the port the kernel chose, and releases it. */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
