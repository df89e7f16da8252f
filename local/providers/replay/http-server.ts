/**
 * The HTTP shell of a replay server: a node:http server on 127.0.0.1 that records each request (and
 * whether the client abandoned it), runs an async handler, and writes its answer unless the client has
 * gone. Handlers wait with {@link ReplayExchange.sleep}, which wakes when the client disconnects.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SeenRequest } from './switches.js';

/** A handler's answer. */
export interface ReplayAnswer {
  readonly status: number;
  /** A header given as a list is written as that many header lines (Okta's `link`, for example). */
  readonly headers?: Readonly<Record<string, string | string[]>>;
  readonly body?: unknown;
}

/** One request in flight. */
export interface ReplayExchange {
  readonly url: URL;
  readonly request: IncomingMessage;
  /** Resolves after `ms` (and `gate`, when given), or early (false) when the client goes away. */
  readonly sleep: (ms: number, gate?: Promise<void>) => Promise<boolean>;
}

/** A running replay server. */
export interface ReplayHttpServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 (`port` 0: any free port); `handle` may be set after the origin is known. */
export async function startReplayHttpServer(
  handle: (exchange: ReplayExchange) => Promise<ReplayAnswer>,
  port = 0,
): Promise<ReplayHttpServer> {
  const seen: SeenRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const entry: SeenRequest = { url: req.url ?? '/', headers: { ...req.headers }, aborted: false };
    seen.push(entry);
    res.on('close', () => {
      if (!res.writableFinished) entry.aborted = true;
    });
    const gone = () => res.destroyed || entry.aborted;
    const exchange: ReplayExchange = {
      url: new URL(req.url ?? '/', origin),
      request: req,
      sleep: (ms, gate) =>
        new Promise((resolve) => {
          if (ms <= 0 && gate === undefined) return resolve(!gone());
          const timer = setTimeout(() => void (gate ?? Promise.resolve()).then(() => resolve(!gone())), ms);
          res.once('close', () => {
            clearTimeout(timer);
            resolve(false);
          });
        }),
    };
    req.resume();
    handle(exchange).then(
      (answer) => {
        if (gone()) return;
        const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
        res.writeHead(answer.status, {
          ...(body === '' ? {} : { 'content-type': 'application/json' }),
          ...answer.headers,
        });
        res.end(body);
        entry.answeredAt = Date.now();
      },
      () => {
        if (!gone()) res.writeHead(500).end();
      },
    );
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('replay server has no port');
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    seen,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
