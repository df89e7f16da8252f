/**
 * The post-deploy smoke checks: what a user of a deployed endpoint relies on, each asked over the network
 * exactly as a client would, with the client library. Each check answers pass or fail with a one-line detail;
 * none throws. Tokens never appear in a detail.
 */
import { randomBytes } from 'node:crypto';
import { McpClientError, McpRpcError } from '../errors.js';
import { McpHttpClient } from '../mcp-http.js';
import { SOURCE_RESULTS_EXTENSION } from '../mcp-headers.js';
import type { SourceResultsOutcome } from '../source-results-types.js';

/** One line of the smoke report. */
export interface CheckResult {
  check: string;
  ok: boolean;
  detail: string;
}

/** What the checks need. */
export interface SmokeOptions {
  /** The MCP endpoint, e.g. `https://mcp.example.com/mcp/apps/bos/platform`. */
  url: string;
  /** A bearer token for the endpoint (`bos.read` scope) whose principal has a default context. */
  token: string;
  /** Arguments of the federated read. @default { query: 'a' } */
  searchArguments?: Record<string, unknown>;
  /** A context handle the token's principal is not granted. @default a random, unknown handle */
  foreignContext?: string;
  /** @default 'sessionful' */
  protocol?: 'sessionful' | 'stateless';
  /** Bound on each check. @default 60000 */
  timeoutMs?: number;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

const METADATA_PREFIX = '/.well-known/oauth-protected-resource';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A failure's one-line reason, without stack or token. */
function reason(error: unknown): string {
  if (error instanceof McpRpcError) return error.message;
  if (error instanceof McpClientError) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.name === 'TimeoutError' ? 'timed out' : error.message;
  return 'failed';
}

/** The `resource_metadata` URL of a challenge, from either header name API Gateway may use. */
function challengeOf(response: Response): { header: string; metadataUrl?: string } | undefined {
  // API Gateway renames an integration's WWW-Authenticate (docs/deploy.md "Authorization discovery").
  for (const header of ['www-authenticate', 'x-amzn-remapped-www-authenticate']) {
    const value = response.headers.get(header);
    if (value === null || !/^Bearer\b/i.test(value)) continue;
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(value)?.[1];
    return metadataUrl === undefined ? { header } : { header, metadataUrl };
  }
  return undefined;
}

/** RFC 9728 §3.1 locations of the endpoint's metadata, and the one a staged execute-api URL routes. */
export function metadataCandidates(endpoint: string): string[] {
  const url = new URL(endpoint);
  const inserted = `${url.origin}${METADATA_PREFIX}${url.pathname}`;
  const staged = /^(\/[^/]+)(\/mcp\/.*)$/.exec(url.pathname);
  return staged ? [inserted, `${url.origin}${staged[1]}${METADATA_PREFIX}${staged[2]}`] : [inserted];
}

/** Runs every check in order and returns one result per check. */
export async function runSmokeChecks(options: SmokeOptions): Promise<CheckResult[]> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const doFetch = options.fetch ?? globalThis.fetch;
  const results: CheckResult[] = [];
  const run = async (check: string, body: (signal: AbortSignal) => Promise<string>): Promise<void> => {
    try {
      results.push({ check, ok: true, detail: await body(AbortSignal.timeout(timeoutMs)) });
    } catch (error) {
      results.push({ check, ok: false, detail: reason(error) });
    }
  };
  const client = (): McpHttpClient =>
    new McpHttpClient({
      url: options.url,
      token: options.token,
      protocol: options.protocol ?? 'sessionful',
      clientInfo: { name: 'bos-mcp-smoke', version: '0.1.0' },
      fetch: doFetch,
    });
  let challenged: string | undefined;

  await run('401 names resource metadata', async (signal) => {
    const response = await doFetch(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      signal,
    });
    await response.body?.cancel();
    if (response.status !== 401) throw new Error(`expected 401 without a token, got ${response.status}`);
    const challenge = challengeOf(response);
    if (challenge?.metadataUrl === undefined)
      throw new Error('401 without a Bearer challenge naming resource_metadata');
    challenged = challenge.metadataUrl;
    return `${challenge.header}: resource_metadata=${challenge.metadataUrl}`;
  });

  await run('discovery (RFC 9728 metadata)', async (signal) => {
    const candidates = challenged !== undefined ? [challenged] : metadataCandidates(options.url);
    const failures: string[] = [];
    for (const candidate of candidates) {
      const response = await doFetch(candidate, { headers: { accept: 'application/json' }, signal });
      if (!response.ok) {
        await response.body?.cancel();
        failures.push(`${candidate} answered ${response.status}`);
        continue;
      }
      const metadata: unknown = await response.json();
      if (!isObject(metadata)) throw new Error('metadata is not a JSON object');
      if (metadata.resource !== options.url)
        throw new Error(`resource is ${JSON.stringify(metadata.resource)}, not the endpoint URL`);
      const servers = metadata.authorization_servers;
      if (!Array.isArray(servers) || servers.length === 0) throw new Error('no authorization_servers');
      return `resource matches; authorization_servers=${servers.map(String).join(' ')}`;
    }
    throw new Error(failures.join('; '));
  });

  await run('extension advertised', async () => {
    const mcp = client();
    try {
      const info = await mcp.discover();
      if (info.sourceResults === undefined) throw new Error(`${SOURCE_RESULTS_EXTENSION} not advertised`);
      return `${info.protocol} ${info.protocolVersions.join(',')}; ${SOURCE_RESULTS_EXTENSION} pageSize=${info.sourceResults.pageSize ?? '?'}`;
    } finally {
      await mcp.close().catch(() => undefined);
    }
  });

  const search = options.searchArguments ?? { query: 'a' };
  await run('streamed federated read', async (signal) => {
    const mcp = client();
    let pagesBeforeFinal = 0;
    let finalSeen = false;
    try {
      const outcome = await mcp.callTool('search_people', search, {
        stream: true,
        signal,
        onPage: () => {
          if (!finalSeen) pagesBeforeFinal += 1;
        },
      });
      finalSeen = true;
      const shape = describeOutcome(outcome);
      if (!outcome.confirmed) throw new Error(`no final frame (${outcome.cause})`);
      refusalOf(outcome);
      if (outcome.delivery !== 'sse') throw new Error(`answered as ${outcome.delivery}, not a stream`);
      if (outcome.violations.length > 0)
        throw new Error(`contract violations: ${outcome.violations.map((v) => v.kind).join(', ')}`);
      if (pagesBeforeFinal === 0) throw new Error(`no page before the final frame; ${shape}`);
      return `${pagesBeforeFinal} pages before the final frame; ${shape}`;
    } finally {
      await mcp.close().catch(() => undefined);
    }
  });

  await run('JSON without the opt-in', async (signal) => {
    const mcp = client();
    try {
      const outcome = await mcp.callTool('search_people', search, { signal });
      if (!outcome.confirmed) throw new Error(`no result (${outcome.cause})`);
      if (outcome.delivery !== 'json') throw new Error(`answered as ${outcome.delivery}, not JSON`);
      if (outcome.observedPages.length > 0) throw new Error('source pages were sent without the opt-in');
      refusalOf(outcome);
      return `application/json; ${describeOutcome(outcome)}`;
    } finally {
      await mcp.close().catch(() => undefined);
    }
  });

  await run('unauthorised context refused', async (signal) => {
    const handle = options.foreignContext ?? `ctx_${randomBytes(16).toString('hex')}`;
    const mcp = client();
    try {
      const outcome = await mcp.callTool(
        'bos_execute',
        { context_handle: handle, tool_name: 'search_people', arguments: search },
        { stream: true, signal },
      );
      if (!outcome.confirmed) throw new Error(`no answer (${outcome.cause})`);
      if (outcome.observedPages.length > 0) throw new Error('records were streamed for the context');
      if (outcome.error !== undefined) return `JSON-RPC ${outcome.error.code}: ${outcome.error.message}`;
      throw new Error(`the call was answered (${describeOutcome(outcome)})`);
    } finally {
      await mcp.close().catch(() => undefined);
    }
  });
  return results;
}

/** Throws when a confirmed answer is no federated result: a JSON-RPC error, or a tool error with no records. */
function refusalOf(outcome: SourceResultsOutcome): void {
  if (!outcome.confirmed) return;
  if (outcome.error) throw new Error(`JSON-RPC ${outcome.error.code}: ${outcome.error.message}`);
  if (outcome.completeness !== undefined) return;
  const content = outcome.result?.content;
  const text = Array.isArray(content) && isObject(content[0]) ? content[0].text : undefined;
  throw new Error(
    `no federated result: ${typeof text === 'string' ? text.slice(0, 160) : 'no completeness'}`,
  );
}

/** `completeness=… result_count=… sources=…` of a confirmed outcome. */
function describeOutcome(outcome: SourceResultsOutcome): string {
  // Only a stream names its sources one by one; a JSON answer carries just the final result.
  const sources = outcome.delivery === 'sse' ? ` sources=${outcome.sources.length}` : '';
  if (!outcome.confirmed) return `unconfirmed${sources}`;
  const errors = outcome.sourceErrors.map((e) => `${e.source.source_identity}:${e.code}`).join(',');
  return (
    `completeness=${outcome.completeness ?? '?'} result_count=${outcome.resultCount ?? '?'}` +
    `${sources}${errors === '' ? '' : ` source_errors=${errors}`}`
  );
}
