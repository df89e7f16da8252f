/**
 * Starts the conformance app behind a local HTTP front, either in-process on `serveNode` (default) or
 * through the local Lambda stack (`via: 'lambda'`), and returns the MCP endpoint URL.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { McpServer } from '../../lambda/mcp/index.js';
import { serveNode } from '../node-http.js';
import { createConformanceApp, loopbackOrigins } from './app.js';

export interface ConformanceServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3100/mcp`. */
  url: string;
  close(): Promise<void>;
}

export interface StartConformanceOptions {
  /** @default 0 (a free port) */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** `node`: in-process on node:http; `lambda`: through `local/stack.ts`. @default 'node' */
  via?: 'node' | 'lambda';
}

/** Thrown when the requested way of serving is not available in this checkout. */
export class ConformanceSetupError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ConformanceSetupError';
  }
}

/**
 * The seam the local Lambda stack fills: `local/stack.ts` must export
 * `startStack({ app: 'conformance', port }) => Promise<{ url, close }>` where `url` is the MCP endpoint.
 */
interface StackModule {
  startStack?: (options: { app: 'conformance'; port: number }) => Promise<ConformanceServer>;
}

const MCP_PATH = '/mcp';

/** Starts the conformance server; resolves once it accepts connections. */
export async function startConformanceServer(options: StartConformanceOptions = {}): Promise<ConformanceServer> {
  if (options.via === 'lambda') return startViaLambda(options.port ?? 0);
  // The app is built after listening because its Origin allow-list needs the bound port.
  let app: McpServer | undefined;
  const front = await serveNode(
    (request, ctx) => {
      if (app === undefined || new URL(request.url).pathname !== MCP_PATH) {
        return Promise.resolve(Response.json({ error: 'not found' }, { status: 404 }));
      }
      return app.handle(request, ctx);
    },
    { port: options.port ?? 0, host: options.host ?? '127.0.0.1' },
  );
  app = createConformanceApp({ allowedOrigins: loopbackOrigins(front.port) });
  return { url: `${front.url}${MCP_PATH}`, close: () => front.close() };
}

async function startViaLambda(port: number): Promise<ConformanceServer> {
  const stackFile = fileURLToPath(new URL('../stack.ts', import.meta.url));
  if (!existsSync(stackFile)) {
    throw new ConformanceSetupError(
      'CONFORMANCE_VIA=lambda needs local/stack.ts (the local Lambda stack), which does not exist yet',
    );
  }
  // A computed specifier keeps this file compiling before local/stack.ts exists.
  const specifier = '../stack.js';
  const stack = (await import(specifier)) as StackModule;
  if (typeof stack.startStack !== 'function') {
    throw new ConformanceSetupError(
      "local/stack.ts does not export startStack({ app: 'conformance', port }) => Promise<{ url, close }>",
    );
  }
  return stack.startStack({ app: 'conformance', port });
}
