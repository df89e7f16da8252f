/**
 * The `bos/source-results/v1` consumer (contract §6 checklist, items 4–6). Given the HTTP response of a
 * `tools/call` (or its body stream) and the request id, it reports provisional pages as they arrive and
 * ends with the authoritative final response — or with "no confirmed result" when the stream ends first.
 */
import { McpHttpStatusError, McpProtocolError } from './errors.js';
import { isJsonRpcResponse, readFinalResponse } from './final-result.js';
import { readSseEvents } from './sse.js';
import { SOURCE_RESULT_METHOD, SourceResultsTracker } from './source-tracker.js';
import type {
  ConsumeDiagnostics,
  ObservedSummary,
  ProtocolViolation,
  RequestId,
  SourceResultsEvent,
  SourceResultsHandlers,
  SourceResultsOutcome,
} from './source-results-types.js';

/** Options of {@link iterateSourceResults} and {@link consumeSourceResults}. */
export interface ConsumeOptions {
  /** The id of the `tools/call` request; frames and the final response must carry it. */
  requestId: RequestId;
  /** Epoch ms that `elapsedMs` is measured from. @default the time the consumer starts */
  startedAt?: number;
  /** Called for each SSE comment (`: keepalive` …); comments are counted, never interpreted. */
  onComment?: (comment: string) => void;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses `type/subtype; params` and returns the lower-cased `type/subtype` (never substring-matched). */
export function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Async-iterator API: yields provisional events in arrival order and returns the outcome.
 * Throws {@link McpHttpStatusError} for a non-2xx status and {@link McpProtocolError} for a response
 * that is neither the JSON delivery nor an event stream (checklist: inspect status and Content-Type first).
 */
export async function* iterateSourceResults(
  input: Response | ReadableStream<Uint8Array>,
  options: ConsumeOptions,
): AsyncGenerator<SourceResultsEvent, SourceResultsOutcome, undefined> {
  const startedAt = options.startedAt ?? Date.now();
  const tracker = new SourceResultsTracker(options.requestId);
  const diagnostics: ConsumeDiagnostics = {
    comments: 0,
    emptyEvents: 0,
    sourceFrames: 0,
    otherNotifications: 0,
  };
  const summary = (delivery: 'sse' | 'json'): ObservedSummary => ({
    delivery,
    observedPages: tracker.observedPages,
    sources: tracker.sources,
    violations: tracker.violations,
    diagnostics,
  });

  let body: ReadableStream<Uint8Array>;
  if (input instanceof Response) {
    const mediaType = await checkResponse(input);
    if (mediaType === 'application/json') {
      // The existing JSON delivery: the client did not opt in, or the server declined to stream.
      let text: string;
      try {
        text = await input.text();
      } catch (error) {
        return {
          ...summary('json'),
          confirmed: false,
          reason: 'no confirmed result',
          cause: 'network',
          detail: describe(error),
        };
      }
      const message = parseJson(text) as Record<string, unknown>;
      if (!isJsonRpcResponse(message))
        throw new McpProtocolError('invalid_json', 'JSON body is not a JSON-RPC response');
      if (message.id !== options.requestId)
        throw new McpProtocolError(
          'id_mismatch',
          `response id ${JSON.stringify(message.id)} does not match the request`,
        );
      return { ...summary('json'), confirmed: true, ...readFinalResponse(options.requestId, message) };
    }
    body = input.body as ReadableStream<Uint8Array>;
  } else body = input;

  const violation = (v: ProtocolViolation): SourceResultsEvent => {
    tracker.violations.push(v);
    return { type: 'violation', violation: v };
  };
  const events = readSseEvents(body, {
    onComment: (comment) => options.onComment?.(comment),
    diagnostics: (d) => {
      diagnostics.comments = d.comments;
      diagnostics.emptyEvents = d.emptyEvents;
    },
  });
  try {
    for await (const event of events) {
      // Contract §3: every JSON payload is an `event: message` frame; dispatch on the JSON method.
      if (event.event !== 'message') {
        yield violation({
          kind: 'unexpected_event',
          message: `SSE event named ${JSON.stringify(event.event)}`,
        });
        continue;
      }
      const message = parseJson(event.data);
      if (!isObject(message) || message.jsonrpc !== '2.0') {
        yield violation({ kind: 'invalid_frame', message: 'SSE data is not a JSON-RPC message' });
        continue;
      }
      if (isJsonRpcResponse(message)) {
        if (message.id !== options.requestId) {
          yield violation({
            kind: 'unexpected_response',
            message: `response with id ${JSON.stringify(message.id)} while waiting for ${JSON.stringify(options.requestId)}`,
          });
          continue;
        }
        // Normal completion: every source seen must have reported its terminal before the final frame.
        if ('result' in message)
          for (const v of tracker.missingTerminals()) yield { type: 'violation', violation: v };
        return { ...summary('sse'), confirmed: true, ...readFinalResponse(options.requestId, message) };
      }
      if (typeof message.method !== 'string' || 'id' in message) {
        yield violation({
          kind: 'unexpected_event',
          message: 'server-to-client request on a tool-call stream',
        });
        continue;
      }
      if (message.method === SOURCE_RESULT_METHOD) {
        diagnostics.sourceFrames += 1;
        yield* tracker.accept(message.params, Date.now() - startedAt);
      } else {
        diagnostics.otherNotifications += 1;
        yield { type: 'notification', method: message.method, params: message.params };
      }
    }
  } catch (error) {
    // Contract §5: a connection failure before the final response means no confirmed terminal result.
    return {
      ...summary('sse'),
      confirmed: false,
      reason: 'no confirmed result',
      cause: 'network',
      detail: describe(error),
    };
  }
  return { ...summary('sse'), confirmed: false, reason: 'no confirmed result', cause: 'eof' };
}

/** Callback API over {@link iterateSourceResults}: same rules, handlers called in arrival order. */
export async function consumeSourceResults(
  input: Response | ReadableStream<Uint8Array>,
  options: ConsumeOptions & SourceResultsHandlers,
): Promise<SourceResultsOutcome> {
  const iterator = iterateSourceResults(input, options);
  for (;;) {
    const step = await iterator.next();
    if (step.done === true) return step.value;
    const event = step.value;
    if (event.type === 'page') options.onPage?.(event.page);
    else if (event.type === 'source_complete') options.onSourceComplete?.(event.terminal);
    else if (event.type === 'source_error') options.onSourceError?.(event.terminal);
    else if (event.type === 'violation') options.onViolation?.(event.violation);
    else options.onNotification?.(event.method, event.params);
  }
}

/** Status first, then media type; returns the parsed media type of a usable 2xx response. */
async function checkResponse(response: Response): Promise<string> {
  const mediaType = mediaTypeOf(response.headers.get('content-type'));
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    const parsed = mediaType === 'application/json' ? parseJson(text) : undefined;
    const rpc = isObject(parsed) && isObject(parsed.error) ? parsed.error : undefined;
    const detail: ConstructorParameters<typeof McpHttpStatusError>[1] = {};
    if (rpc && typeof rpc.code === 'number' && typeof rpc.message === 'string')
      detail.rpcError = {
        code: rpc.code,
        message: rpc.message,
        ...(rpc.data !== undefined ? { data: rpc.data } : {}),
      };
    // API Gateway REST renames WWW-Authenticate (see shared notes §3.2), so read both.
    const challenge =
      response.headers.get('www-authenticate') ?? response.headers.get('x-amzn-remapped-www-authenticate');
    if (challenge !== null) detail.wwwAuthenticate = challenge;
    throw new McpHttpStatusError(response.status, detail);
  }
  if (mediaType !== 'application/json' && mediaType !== 'text/event-stream') {
    await response.body?.cancel().catch(() => undefined);
    throw new McpProtocolError(
      'unexpected_content_type',
      `HTTP ${response.status} with Content-Type ${JSON.stringify(mediaType)}; expected JSON or an event stream`,
    );
  }
  if (response.body === null)
    throw new McpProtocolError('no_response', `HTTP ${response.status} without a body`);
  return mediaType;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : 'stream read failed';
}
