/**
 * A real `node:http` server on 127.0.0.1 for provider-kernel tests: each test gives a handler, and the
 * server records every request it saw and whether the client closed it before a response was sent.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** One request as the server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  /** Set when the client closed the connection before the response finished. */
  abortedByClient: boolean;
}

/** A running loopback server. */
export interface LoopbackServer {
  readonly origin: string;
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

/** Starts a server whose responses `handler` writes (it may be async and may never answer). */
export async function startLoopbackServer(
  handler: (req: IncomingMessage, res: ServerResponse, seen: SeenRequest) => void | Promise<void>,
): Promise<LoopbackServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const seen: SeenRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      abortedByClient: false,
    };
    requests.push(seen);
    res.on('close', () => {
      if (!res.writableFinished) seen.abortedByClient = true;
    });
    void Promise.resolve(handler(req, res, seen)).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 1000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Writes a JSON response. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}
