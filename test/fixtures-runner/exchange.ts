/**
 * Turns a vector step into a web `Request`, and a `Response` into what the vector compares: status,
 * headers, cookies and the body as JSON, parsed SSE frames or text.
 */
import { sseEvents } from '../helpers/sse.js';
import type { ExpectedStep, SseFrame, StepRequest } from './vector.js';

/** Requests are addressed to this origin; the runtime only looks at the path. */
const ORIGIN = 'http://fixture.local';

export function toRequest(step: StepRequest): Request {
  const headers = new Headers();
  for (const [name, values] of Object.entries(step.headers))
    for (const value of values) headers.append(name, value);
  const raw = step.body?.value ?? '';
  const body = step.body?.encoding === 'base64' ? Buffer.from(raw, 'base64') : raw;
  const hasBody = step.method !== 'GET' && step.method !== 'HEAD' && body.length > 0;
  return new Request(ORIGIN + step.path, { method: step.method, headers, ...(hasBody ? { body } : {}) });
}

export interface ObservedStep {
  status: number;
  /** Lower-case header name -> values; `set-cookie` is kept apart in `cookies`. */
  headers: Record<string, string[]>;
  cookies: string[];
  text: string;
}

/** Reads the whole response; rejects if the body does not end within `timeoutMs` (a hang guard only). */
export async function observe(response: Response, timeoutMs: number, readBody = true): Promise<ObservedStep> {
  const headers: Record<string, string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = [value];
  });
  let text = '';
  if (!readBody) {
    await response.body?.cancel();
  } else if (response.body !== null) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`response body did not end within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      text = await Promise.race([response.text(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
  return { status: response.status, headers, cookies: response.headers.getSetCookie(), text };
}

/**
 * Parses an SSE body into frames, one per dispatched event (the priming event, an id with empty data, is
 * kept, because the vectors list it). Comment lines and `retry` are transport hints, not frames.
 */
export function parseSse(text: string): SseFrame[] {
  return sseEvents(text).map(({ id, event, data }) => ({
    ...(id === undefined ? {} : { id }),
    ...(event === undefined ? {} : { event }),
    data,
  }));
}

/** What the step's body must equal, in the form the vector states it. */
export type BodyExpectation =
  | { kind: 'json'; value: unknown }
  | { kind: 'sse'; frames: SseFrame[] }
  | { kind: 'text'; value: string }
  | { kind: 'empty' };

export function bodyExpectation(expected: ExpectedStep): BodyExpectation {
  if (expected.body_json !== undefined) return { kind: 'json', value: expected.body_json };
  if (expected.sse_frames !== undefined) return { kind: 'sse', frames: expected.sse_frames };
  if (expected.body !== undefined) return { kind: 'text', value: expected.body };
  return { kind: 'empty' };
}
