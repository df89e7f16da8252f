/**
 * A TCP relay on loopback in front of the real slapd, for what slapd cannot be told to do: be slow on the
 * wire (every chunk towards the client waits `delayMs`), be down (the relay stops listening, so a
 * connect is refused), and report that a client closed its connection before slapd had finished.
 */
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

/** What the relay does besides relaying. */
export interface RelayBehaviour {
  /** Delay of every chunk from slapd to the client (ms). @default 0 */
  delayMs: number;
  /**
   * Hold every chunk a client sends after its first `holdRequestsAfter` (an LDAP client writes one
   * request per chunk: bind, then one search request per page), until {@link LdapRelay.release}.
   */
  holdRequestsAfter?: number;
}

/** A running relay. */
export interface LdapRelay {
  readonly port: number;
  readonly behaviour: RelayBehaviour;
  /** Connections the client closed while slapd still had the connection open. */
  readonly clientAborts: () => number;
  /** Requests held back right now. */
  readonly held: () => number;
  /** Stops holding and forwards what was held. */
  release(): void;
  /** Stops listening (connects are refused) or listens again on the same port. */
  setDown(down: boolean): Promise<void>;
  close(): Promise<void>;
}

/** Starts a relay to `127.0.0.1:targetPort`. */
export async function startRelay(targetPort: number): Promise<LdapRelay> {
  const behaviour: RelayBehaviour = { delayMs: 0 };
  const sockets = new Set<Socket>();
  let aborts = 0;
  const queues = new Map<Socket, { upstream: Socket; chunks: Buffer[] }>();
  const onConnection = (client: Socket) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    let upstreamEnded = false;
    upstream.on('end', () => (upstreamEnded = true));
    let sent = 0;
    const queue = { upstream, chunks: [] as Buffer[] };
    queues.set(client, queue);
    client.on('data', (chunk: Buffer) => {
      const limit = behaviour.holdRequestsAfter;
      if (limit !== undefined && sent >= limit) queue.chunks.push(chunk);
      else {
        sent++;
        upstream.write(chunk);
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      if (behaviour.delayMs === 0) client.write(chunk);
      else setTimeout(() => client.destroyed || client.write(chunk), behaviour.delayMs);
    });
    client.on('close', () => {
      if (!upstreamEnded && !upstream.destroyed) aborts++;
      upstream.destroy();
      sockets.delete(client);
      queues.delete(client);
    });
    upstream.on('close', () => {
      client.end();
      sockets.delete(upstream);
    });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  };
  let server: Server = createServer(onConnection).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const port = address.port;
  const stop = async () => {
    for (const socket of sockets) socket.destroy();
    if (!server.listening) return;
    server.close();
    await once(server, 'close');
  };
  return {
    port,
    behaviour,
    clientAborts: () => aborts,
    held: () => [...queues.values()].reduce((n, q) => n + q.chunks.length, 0),
    release() {
      behaviour.holdRequestsAfter = undefined;
      for (const queue of queues.values())
        for (const chunk of queue.chunks.splice(0))
          if (!queue.upstream.destroyed) queue.upstream.write(chunk);
    },
    async setDown(down) {
      if (down) return stop();
      if (server.listening) return;
      server = createServer(onConnection).listen(port, '127.0.0.1');
      await once(server, 'listening');
    },
    close: stop,
  };
}
