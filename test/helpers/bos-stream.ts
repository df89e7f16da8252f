/**
 * Reading a finished `bos/source-results/v1` response body in the `bos-*` integration suites: the strict
 * frame parser of the unit suites (`test/unit/bos/sse-frames.ts`) plus a per-source summary that makes no
 * assertions itself, so each test asserts exactly the clause it names.
 */
import assert from 'node:assert/strict';
import { messagesOf, pairKey, parseSse } from '../unit/bos/sse-frames.js';
import type { Frame, Message, SourceResultParams } from '../unit/bos/sse-frames.js';

export { messagesOf, operationResultOf, pairKey, parseSse } from '../unit/bos/sse-frames.js';
export type { FinalResult, Frame, Message, RecordJson, SourceResultParams } from '../unit/bos/sse-frames.js';

/** A streamed response read whole. */
export interface ReadStream {
  status: number;
  headers: Headers;
  body: string;
  frames: Frame[];
  messages: Message[];
  /** Every source notification, in arrival order. */
  notifications: SourceResultParams[];
  /** The last message (the final frame on a normally completed read). */
  final: Message | undefined;
  /** Pages per `type/identity`, in arrival order. */
  pages: Map<string, SourceResultParams[]>;
  /** Terminal frames (`complete`/`error`) per `type/identity`, in arrival order. */
  terminals: Map<string, SourceResultParams[]>;
}

/**
 * Reads and parses a response that negotiated the extension. An answer that is not a stream at all (a 503
 * from a store that did not answer in time, a 4xx) fails here with its status and the start of its body,
 * instead of surfacing as a stream that "does not end on a frame boundary".
 */
export async function readStream(response: Response): Promise<ReadStream> {
  const body = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  if (!/^text\/event-stream/i.test(contentType)) {
    assert.fail(`expected an SSE stream, got HTTP ${response.status} ${contentType}: ${body.slice(0, 300)}`);
  }
  const frames = parseSse(body);
  const messages = messagesOf(frames);
  const notifications = messages
    .filter((m) => m.method === 'notifications/bos/source_result')
    .map((m) => m.params as SourceResultParams);
  const pages = new Map<string, SourceResultParams[]>();
  const terminals = new Map<string, SourceResultParams[]>();
  for (const params of notifications) {
    const into = params.status === 'page' ? pages : terminals;
    const key = pairKey(params.source);
    into.set(key, [...(into.get(key) ?? []), params]);
  }
  return {
    status: response.status,
    headers: response.headers,
    body,
    frames,
    messages,
    notifications,
    final: messages.at(-1),
    pages,
    terminals,
  };
}

/** A read with nothing in it, for a stream that could not be read (the tests then report why). */
export function emptyRead(response: Response): ReadStream {
  return {
    status: response.status,
    headers: response.headers,
    body: '',
    frames: [],
    messages: [],
    notifications: [],
    final: undefined,
    pages: new Map(),
    terminals: new Map(),
  };
}

/** `type/identity/external_id` of a provenance entry. */
export const provenanceKey = (s: { source_type: string; source_identity: string; external_id: string }) =>
  `${pairKey(s)}/${s.external_id}`;
