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

/** The part of `local/stack.ts` this module uses (`startStack`, see that file). */
interface StackModule {
  startStack?: (options: {
    port?: number;
    handlerEntry?: string;
    dynamodb?: boolean;
    auth?: boolean;
  }) => Promise<ConformanceServer>;
}

/** The Lambda entry the stack bundles for the conformance app. */
const LAMBDA_ENTRY = 'local/conformance/lambda-handler.ts';

const MCP_PATH = '/mcp';

/** Starts the conformance server; resolves once it accepts connections. */
export async function startConformanceServer(
  options: StartConformanceOptions = {},
): Promise<ConformanceServer> {
  if (options.via === 'lambda') return startViaLambda(options.port ?? 0);
  // The app is built after listening because its Origin allow-list needs the bound port.
  const slot: { app?: McpServer } = {};
  const front = await serveNode(
    (request, ctx) => {
      const { app } = slot;
      if (app === undefined || new URL(request.url).pathname !== MCP_PATH) {
        return Promise.resolve(Response.json({ error: 'not found' }, { status: 404 }));
      }
      return app.handle(request, ctx);
    },
    { port: options.port ?? 0, host: options.host ?? '127.0.0.1' },
  );
  slot.app = createConformanceApp({ allowedOrigins: loopbackOrigins(front.port) });
  return { url: `${front.url}${MCP_PATH}`, close: () => front.close() };
}

async function startViaLambda(port: number): Promise<ConformanceServer> {
  const stackFile = fileURLToPath(new URL('../stack.ts', import.meta.url));
  if (!existsSync(stackFile)) {
    throw new ConformanceSetupError(
      'CONFORMANCE_VIA=lambda needs local/stack.ts (the local Lambda stack), which does not exist yet',
    );
  }
  // A computed specifier keeps this file type-checking independently of the stack's progress.
  const specifier = '../stack.js';
  let stack: StackModule;
  try {
    stack = (await import(specifier)) as StackModule;
  } catch (cause) {
    throw new ConformanceSetupError(`local/stack.ts failed to load: ${String(cause)}`, { cause });
  }
  if (typeof stack.startStack !== 'function') {
    throw new ConformanceSetupError(
      'local/stack.ts does not export startStack(options) => Promise<{ url, close }>',
    );
  }
  // DynamoDB sessions: the stack's execution environments are separate processes. No auth: the suite
  // sends no bearer token. The stack's default Origin allow-list is the front's own origins.
  return stack.startStack({ port, handlerEntry: LAMBDA_ENTRY, dynamodb: true, auth: false });
}
