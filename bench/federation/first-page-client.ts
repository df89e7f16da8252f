/**
 * The client side of `npm run bench:bos` (`streaming.ts`): the rounds of stateless `bos_execute` →
 * `list_people` calls, each timed from sending until the first source page is readable (streaming) or the
 * JSON response is whole. By default the benchmark forks this file, which runs the rounds it is sent and sends
 * the timings back (`BENCH_CLIENT=inline` calls {@link runRounds} in the benchmark's own process instead): the
 * client then has its own heap, as a real client has its own process, so its garbage (undici's request and
 * response objects, a parsed 1 MB JSON answer) is not collected in the middle of the local front's and
 * Runtime API's work on the next call.
 */
import { pathToFileURL } from 'node:url';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../lambda/bos/index.js';

const OPT_IN_CAPABILITIES = { experimental: { 'bos/source-results/v1': {} } };
const CALL_ARGS = { context_handle: DEMO_PEOPLE_CONTEXT_HANDLE, tool_name: 'list_people', arguments: {} };

/** What one run of rounds needs. */
export interface RoundsOptions {
  /** The MCP endpoint URL of the local stack. */
  url: string;
  /** Bearer token of `dev-user`. */
  token: string;
  rounds: number;
  /** Rounds run first and not counted. */
  warmup: number;
}

/** ms to the first page, per counted round. */
export interface RoundTimings {
  streaming: number[];
  json: number[];
  /**
   * When each counted streaming round's first page was readable, as epoch ms with sub-millisecond
   * precision (`performance.timeOrigin + performance.now()`), to set against a provider's own clock.
   */
  streamingAt: number[];
}

/**
 * A stateless (2026-07-28) caller: every request carries its own protocol headers and `_meta`, so no
 * session lookup sits in front of the call and the stream is not written to the session's stream store.
 */
function statelessHeaders(token: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    Authorization: `Bearer ${token}`,
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': 'tools/call',
    'Mcp-Name': 'bos_execute',
  };
}

/**
 * ms from sending until the first source page is readable (streaming) or the JSON response is whole, and
 * when that was (epoch ms).
 */
async function firstPage(
  options: RoundsOptions,
  id: number,
  stream: boolean,
): Promise<{ ms: number; at: number }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'bos_execute',
      arguments: CALL_ARGS,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': stream ? OPT_IN_CAPABILITIES : {},
      },
    },
  });
  const sentAt = performance.now();
  const response = await fetch(options.url, {
    method: 'POST',
    headers: statelessHeaders(options.token),
    body,
  });
  if (response.status !== 200 || response.body === null) throw new Error(`HTTP ${response.status}`);
  if (!stream) {
    const message = (await response.json()) as { result?: unknown };
    if (message.result === undefined) throw new Error('no result');
    return { ms: performance.now() - sentAt, at: performance.timeOrigin + performance.now() };
  }
  let pageAt: number | undefined;
  let text = '';
  const decoder = new TextDecoder();
  // Read to the end so the next round starts on an idle function; only the first page's time counts.
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (pageAt !== undefined) continue;
    text += decoder.decode(value, { stream: true });
    if (text.includes('"status":"page"')) pageAt = performance.now();
  }
  if (pageAt === undefined) throw new Error('no page frame');
  return { ms: pageAt - sentAt, at: performance.timeOrigin + pageAt };
}

/** Each round sends the streamed call, then the same call as plain JSON, to a warm function. */
export async function runRounds(options: RoundsOptions): Promise<RoundTimings> {
  const timings: RoundTimings = { streaming: [], json: [], streamingAt: [] };
  for (let round = 0; round < options.warmup + options.rounds; round++) {
    const streaming = await firstPage(options, round * 2 + 1, true);
    const json = await firstPage(options, round * 2 + 2, false);
    if (round >= options.warmup) {
      timings.streaming.push(streaming.ms);
      timings.streamingAt.push(streaming.at);
      timings.json.push(json.ms);
    }
  }
  return timings;
}

// Run as the entry of a forked process: one message with the options in, the timings out, then exit.
const send = process.send?.bind(process);
if (send !== undefined && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.once('message', (options: RoundsOptions) => {
    // A failure rejects here and ends the process with an error, which the parent reports.
    void runRounds(options).then((timings) => send(timings, () => process.disconnect()));
  });
}
