/**
 * A real JWKS endpoint on 127.0.0.1 for verifier tests: serves whatever key set it currently holds,
 * counts fetches, and can be told to hang (never answer) to exercise the fetch timeout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import type { JWK } from 'jose';

export interface JwksServer {
  readonly url: URL;
  /** Keys served from now on. */
  keys: JWK[];
  /** When true, requests are accepted but never answered. */
  hang: boolean;
  /** Number of JWKS requests received. */
  readonly fetches: number;
  close(): Promise<void>;
}

export async function startJwksServer(keys: JWK[]): Promise<JwksServer> {
  const sockets = new Set<Socket>();
  const state = { keys, hang: false, fetches: 0 };
  const server = createServer((req, res) => {
    state.fetches += 1;
    if (state.hang) return;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: state.keys }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/.well-known/jwks.json`),
    get keys() {
      return state.keys;
    },
    set keys(value) {
      state.keys = value;
    },
    get hang() {
      return state.hang;
    },
    set hang(value) {
      state.hang = value;
    },
    get fetches() {
      return state.fetches;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
