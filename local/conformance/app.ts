/**
 * The conformance app: an `McpServer` carrying everything the server scenarios of
 * `@modelcontextprotocol/conformance@0.2.0-alpha.12` exercise at `--requirements 2025-11-25`.
 */
import { InMemoryTaskStore, McpServer } from '../../lambda/mcp/index.js';
import type { McpServerOptions } from '../../lambda/mcp/types/index.js';
import { conformanceHooks, registerConformancePrompts, registerConformanceResources } from './catalog.js';
import { registerConformanceTools } from './tools.js';
import { registerConformance2026 } from './tools-2026.js';
import { registerConformanceTaskTools } from './tools-tasks.js';

export interface ConformanceAppOptions {
  /**
   * Origins the app accepts. dns-rebinding-protection sends `Origin: http://<host:port of the server>`
   * and expects 2xx, and `Origin: http://evil.example.com` and expects 4xx, so callers pass the origins
   * of the address they listen on.
   */
  allowedOrigins: readonly string[];
  /** Extra runtime options (stores, clock …) for callers that embed the app elsewhere. */
  overrides?: Partial<McpServerOptions>;
}

/** Builds a fresh conformance server; nothing is shared between two calls. */
export function createConformanceApp(options: ConformanceAppOptions): McpServer {
  const server = new McpServer({
    name: 'bos-mcp-conformance',
    version: '0.1.0',
    allowedOrigins: options.allowedOrigins,
    // The tasks scenarios poll every 200 ms; a task store per app (the Lambda entry passes DynamoDB's).
    tasks: { store: new InMemoryTaskStore(), pollIntervalMs: 500, cancelPollMs: 250 },
    ...conformanceHooks(),
    ...options.overrides,
  });
  registerConformanceTools(server);
  registerConformanceResources(server);
  registerConformancePrompts(server);
  registerConformance2026(server);
  registerConformanceTaskTools(server);
  return server;
}

/** The origins a browser would send for a server reachable at `port` on the loopback interface. */
export function loopbackOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
}
