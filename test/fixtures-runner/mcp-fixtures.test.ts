/**
 * Runs the AppTheory MCP contract vectors (shared/fixtures/apptheory/mcp) against our runtime, the way
 * the reference TS runner does (reference-runtime-lessons §3): one server per vector built from
 * `setup.mcp`, steps in order, status + headers + cookies compared exactly, `body_json` deep-equal,
 * `sse_frames` parsed with `data` compared as an exact string, `body` as exact text.
 *
 * Two adapter-level headers are treated differently from the rest, and only these two:
 * - `x-request-id`: the reference framework stamps its request id (fixed at `req_mcp_123`) on every
 *   response; in our design that id belongs to the adapter (Lambda's awsRequestId) and the runtime need
 *   not echo it. The runner passes `req_mcp_123` as `ctx.requestId`; if the header is emitted it must
 *   equal `req_mcp_123`, and its absence is accepted.
 * - `x-accel-buffering: no`: DESIGN §5 requires it on every SSE response so proxies never buffer a
 *   stream; the reference runtime does not send it. It is accepted only with that value and only on a
 *   `text/event-stream` response; anywhere else it is a mismatch.
 * - `allow`: RFC 9110 §15.5.6 requires it on every 405; the reference runtime omits it. It is accepted
 *   only on a 405 response; anywhere else it is a mismatch.
 * Every other header must match exactly: none extra, none missing, same values.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { detectShape } from '../../lambda/mcp/index.js';
import type { HeaderValues, McpServer } from '../../lambda/mcp/index.js';
import { buildFixtureServer } from './build-server.js';
import { bodyExpectation, observe, parseSse, toRequest, type BodyExpectation } from './exchange.js';
import { loadVectors, MCP_VECTOR_DIR } from './vector.js';

const REQUEST_ID = 'req_mcp_123';
/** Hang guard for reading one response body; not a latency assertion. */
const BODY_TIMEOUT_MS = 5_000;

interface SkipFile {
  vectors: { file: string; steps?: string[]; reason: string }[];
}
/** Headers an adapter may add; see the file comment. */
const ADAPTER_HEADERS = ['x-request-id', 'x-accel-buffering', 'allow'];

function withoutAdapterHeaders(headers: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !ADAPTER_HEADERS.includes(name)));
}

function adapterHeaderProblems(headers: Record<string, string[]>, status: number): string[] {
  const problems: string[] = [];
  if (headers.allow !== undefined && status !== 405) problems.push(`allow header on a ${status} response`);
  const requestId = headers['x-request-id'];
  if (requestId !== undefined && !(requestId.length === 1 && requestId[0] === REQUEST_ID)) {
    problems.push(`x-request-id ${JSON.stringify(requestId)} is not ${REQUEST_ID}`);
  }
  const buffering = headers['x-accel-buffering'];
  const isSse = headers['content-type']?.[0]?.split(';')[0]?.trim() === 'text/event-stream';
  if (buffering !== undefined && !(isSse && buffering.length === 1 && buffering[0] === 'no')) {
    problems.push(
      `x-accel-buffering ${JSON.stringify(buffering)} on a non-SSE response or with a value other than no`,
    );
  }
  return problems;
}

/** The observed body in the form the expectation states it (JSON value, SSE frames or text). */
function bodyOf(text: string, expectation: BodyExpectation): unknown {
  if (expectation.kind === 'json') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return { unparseableBody: text };
    }
  }
  if (expectation.kind === 'sse') return parseSse(text);
  return text;
}

function expectedBodyOf(expectation: BodyExpectation): unknown {
  if (expectation.kind === 'json') return expectation.value;
  if (expectation.kind === 'sse') return expectation.frames;
  if (expectation.kind === 'text') return expectation.value;
  return '';
}

const skips = JSON.parse(readFileSync(new URL('./skip.json', import.meta.url), 'utf8')) as SkipFile;
const vectors = loadVectors();

if (vectors === undefined) {
  it('runs the AppTheory MCP fixture vectors', (t) => {
    t.skip(`fixture folder ${MCP_VECTOR_DIR} is absent`);
  });
} else {
  it('skip.json names only vectors and steps that exist', () => {
    const problems: string[] = [];
    for (const entry of skips.vectors) {
      const found = vectors.find((v) => v.file === entry.file);
      if (found === undefined) problems.push(`no vector ${entry.file}`);
      for (const step of entry.steps ?? []) {
        if (!found?.vector.input.mcp.steps.some((s) => s.name === step))
          problems.push(`no step ${entry.file}#${step}`);
      }
      if (entry.reason.trim() === '') problems.push(`${entry.file} has no reason`);
    }
    assert.deepEqual(problems, []);
  });

  for (const { file, vector } of vectors) {
    const skip = skips.vectors.find((entry) => entry.file === file);
    describe(`${file}: ${vector.name}`, () => {
      if (skip !== undefined && skip.steps === undefined) {
        it('runs its steps', (t) => {
          t.skip(skip.reason);
        });
        return;
      }
      let server: McpServer;
      before(() => {
        server = buildFixtureServer(vector.setup.mcp);
      });
      vector.input.mcp.steps.forEach((step, index) => {
        it(`step ${index + 1} "${step.name}" matches the expected response`, async (t) => {
          if (skip?.steps?.includes(step.name) === true) {
            t.skip(skip.reason);
            return;
          }
          const expected = vector.expect.mcp.steps[index];
          assert.ok(expected !== undefined, `vector has no expectation for step ${index + 1}`);

          const response = await server.handle(toRequest(step.request), { requestId: REQUEST_ID });
          const observed = await observe(response, BODY_TIMEOUT_MS, step.read_body !== false);

          // One deep-equal over the whole step, so a failure shows every difference at once.
          const actual = {
            status: observed.status,
            headers: withoutAdapterHeaders(observed.headers),
            cookies: observed.cookies,
            body: bodyOf(observed.text, bodyExpectation(expected)),
          };
          const wanted = {
            status: expected.status,
            headers: withoutAdapterHeaders(expected.headers),
            cookies: expected.cookies,
            body: expectedBodyOf(bodyExpectation(expected)),
          };
          assert.deepEqual(actual, wanted);
          assert.deepEqual(
            adapterHeaderProblems(observed.headers, observed.status),
            [],
            'adapter-level headers',
          );
        });
      });
      const detections = vector.input.mcp.detections;
      if (detections !== undefined) {
        it(`its ${detections.length} parsed-message detection cases match`, () => {
          const actual = detections.map((c) => {
            const found = detectShape(c.message, c.headers as HeaderValues | undefined);
            return { name: c.name, shape: found.shape === 'unknown' ? 'unknown' : found.version };
          });
          assert.deepEqual(actual, vector.expect.mcp.detections);
        });
      }
    });
  }
}
