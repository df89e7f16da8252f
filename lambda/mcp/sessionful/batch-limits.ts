/**
 * The bounds of a 2025-03-26 batch (docs/mcp-runtime.md "Session-ful dispatch"): how many elements run at once, and
 * how many bytes the joined answer may hold. The element count is checked before anything runs.
 */
import { JsonRpcCode, McpError } from '../errors.js';
import { errorJson } from '../json/json-rpc.js';
import type { JsonRpcId } from '../types/index.js';

/** -32600 for a batch with more elements than the limit; the batch is refused whole. */
export function tooManyElements(limit: number): McpError {
  return new McpError(
    JsonRpcCode.InvalidRequest,
    `Invalid Request: a batch may hold at most ${limit} elements`,
  );
}

/**
 * Runs `fn` over `items` with at most `concurrency` calls in flight, starting them in order, and returns
 * the results in the items' order. The first rejection rejects the run, as `Promise.all` would, and no
 * further item starts.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as T, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}

/** One element's answer: its text, or `skipped` when it was not run because the budget was spent. */
export interface BatchPart {
  id: JsonRpcId | null;
  text: string | undefined;
}

/**
 * The joined answer's byte budget. While elements run, the sizes of finished answers are observed: once
 * they exceed the limit, requests not yet started are not run at all (so memory stays near the limit plus
 * what the running elements hold). The answer is then assembled in element order: an answer that does not
 * fit, and every later one, becomes a short -32603 naming the limit, so the client knows to send it alone.
 */
export class BatchBudget {
  readonly #limit: number;
  #observed = 2; // the enclosing brackets

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Whether requests not yet started should still run. */
  get open(): boolean {
    return this.#observed <= this.#limit;
  }

  /** Records a finished answer's size. */
  observe(text: string): void {
    this.#observed += Buffer.byteLength(text) + 1;
  }

  /** The joined body's parts, in element order, within the limit. */
  assemble(parts: readonly BatchPart[]): string[] {
    const out: string[] = [];
    let used = 2;
    let full = false;
    for (const part of parts) {
      const size = part.text === undefined ? 0 : Buffer.byteLength(part.text) + 1;
      if (!full && part.text !== undefined && used + size <= this.#limit) {
        used += size;
        out.push(part.text);
      } else {
        full = true;
        out.push(this.#refused(part.id));
      }
    }
    return out;
  }

  #refused(id: JsonRpcId | null): string {
    return errorJson(
      id,
      new McpError(
        JsonRpcCode.InternalError,
        `Response too large: the batch answer limit of ${this.#limit} bytes is reached; ` +
          'send this request on its own',
      ),
    );
  }
}
