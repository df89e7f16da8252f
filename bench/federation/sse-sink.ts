/**
 * The production SSE path of a negotiated federated read, for the benchmark: engine events → the
 * `bos/source-results/v1` notifier → the streaming tool context's `notify` → `SseStream` (stateless shape: no
 * stream store) → the response body, drained by a reader that only counts bytes. The sink returns
 * `ready()`, as `lambda/bos/tools/run-operation.ts` does, so the stream's backpressure is part of what is
 * measured. The final frame is built the way the platform builds it (`envelopeResult` → `resultJson` →
 * `SseStream#finish`), and read to its last byte.
 */
import { createSourceResultNotifier, sourceResultEvent } from '../../lambda/bos/extension/index.js';
import type { PublicContext } from '../../lambda/bos/directory/types.js';
import { envelopeResult } from '../../lambda/bos/tools/results.js';
import type { FederationEvent, FederationResult } from '../../lambda/federation/index.js';
import { silentLogger } from '../../lambda/mcp/index.js';
import type { JsonObject, McpRequestContext } from '../../lambda/mcp/index.js';
import { resultJson } from '../../lambda/mcp/json/json-rpc.js';
import { SseStream } from '../../lambda/mcp/sse/index.js';
import { toolEmitters } from '../../lambda/mcp/sse/tool-emitters.js';

/** One invocation's SSE response: the engine's sink, then the final frame. */
export interface SseSink {
  /** The `onEvent` of `runFederation`. */
  readonly onEvent: (event: FederationEvent) => Promise<void>;
  /**
   * Resolves once the reader has taken every frame written so far, so that the cost of encoding and reading
   * them falls inside a measurement that ends here (frames may still sit in the stream when the engine ends).
   */
  caughtUp(): Promise<void>;
  /** Writes the final frame for `result`, ends the stream and waits until the reader has every byte. */
  finish(result: FederationResult): Promise<void>;
  /** Source notification frames written so far. */
  readonly frames: () => number;
  /** Body bytes the reader has taken so far. */
  readonly bytes: () => number;
}

/** A streaming response for request id `requestId` in `context`, read to the end by a byte-counting reader. */
export function createSseSink(requestId: string, context: PublicContext): SseSink {
  const sse = new SseStream({ keepaliveMs: 0, logger: silentLogger, onCancel: () => undefined });
  const emitters = toolEmitters(sse, {}, Infinity);
  const notify = createSourceResultNotifier(requestId, context, (n) => emitters.notify(n));
  let frames = 0;
  let chunks = 0;
  let bytes = 0;
  const reader = sse.body.getReader();
  const drained = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      chunks++;
      bytes += value.byteLength;
    }
  })();
  // Only `shape` is read when the final result is built; stateless results carry resultType.
  const ctx = { shape: 'stateless' } as McpRequestContext;
  return {
    onEvent(event) {
      frames++;
      notify(sourceResultEvent(event));
      return emitters.ready?.() ?? Promise.resolve();
    },
    async caughtUp() {
      // Each notification is enqueued as one chunk; no keepalive comments (keepaliveMs 0).
      while (chunks < frames) await new Promise((resolve) => setImmediate(resolve));
    },
    async finish(result) {
      const toolResult = envelopeResult(result, context, ctx) as unknown as JsonObject;
      await sse.finish(resultJson(requestId, toolResult), requestId);
      await drained;
    },
    frames: () => frames,
    bytes: () => bytes,
  };
}
