/**
 * The `bos/source-results/v1` consumer (contract §6 checklist, items 4–6). Given the HTTP response of a
 * `tools/call` (or its body stream) and the request id, it reports provisional pages as they arrive and
 * ends with the authoritative final response — or with "no confirmed result" when the stream ends first.
 */
import { McpHttpStatusError, McpProtocolError } from './errors.js';
import { isJsonRpcResponse, readFinalResponse } from './final-result.js';
import { mediaTypeOf } from './media-type.js';
import { pause, reconnect, resumeDelay } from './resume.js';
import type { ResumeOptions } from './resume.js';
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
  /**
   * Reconnect a stream that breaks before its final response, after the last event id received (see
   * `resume.ts`). Without it, or on a stream without event ids, a break ends the outcome unconfirmed.
   */
  resume?: ResumeOptions;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export { mediaTypeOf };

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
    resumes: 0,
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
  let lastEventId: string | undefined;
  let serverRetryMs: number | undefined;
  let attemptsInARow = 0;
  // How the stream first broke since events last arrived: what an outcome without confirmation reports.
  let broken: { cause: 'eof' | 'network'; detail?: string } = { cause: 'eof' };
  for (;;) {
    const idBefore = lastEventId;
    let ended: typeof broken = { cause: 'eof' };
    const events = readSseEvents(body, {
      onComment: (comment) => options.onComment?.(comment),
      onId: (id) => (lastEventId = id),
      onRetry: (ms) => (serverRetryMs = ms),
      diagnostics: (d) => {
        diagnostics.comments += d.comments;
        diagnostics.emptyEvents += d.emptyEvents;
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
      ended = { cause: 'network', detail: describe(error) };
    }
    // Contract §5: a break before the final response means no confirmed terminal result, unless the stream
    // can be resumed: then the replay after the last id delivers the rest, each event once.
    const resume = options.resume;
    if (lastEventId !== idBefore || attemptsInARow === 0) {
      attemptsInARow = 0;
      broken = ended;
    }
    if (
      resume === undefined ||
      lastEventId === undefined ||
      resume.signal?.aborted === true ||
      attemptsInARow >= (resume.maxAttempts ?? 3)
    )
      return { ...summary('sse'), confirmed: false, reason: 'no confirmed result', ...broken };
    attemptsInARow += 1;
    const delayMs = resumeDelay(resume, attemptsInARow, serverRetryMs);
    await pause(delayMs, resume.signal);
    resume.onResume?.({ lastEventId, attempt: attemptsInARow, delayMs });
    diagnostics.resumes += 1;
    const next = await reconnect(resume, lastEventId);
    if (next === 'gone')
      return {
        ...summary('sse'),
        confirmed: false,
        reason: 'no confirmed result',
        cause: broken.cause,
        detail: 'resuming failed: the server no longer knows the stream (HTTP 404)',
      };
    body = next ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  }
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
