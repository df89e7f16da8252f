import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../../lambda/bos/index.js';
import type { Harness, Session } from './platform-harness.js';
import { createHarness } from './platform-harness.js';
import type { Frame, Message } from './sse-frames.js';
import { messagesOf, operationResultOf, pairKey, parseSse } from './sse-frames.js';
import { checkStream } from './stream-invariants.js';

const PEOPLE_CONTEXT = {
  context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
  organization_name: 'Acme Corp',
  application_name: 'People Directory',
  installation_name: 'Production',
  role_label: 'Analyst',
  is_default: true,
};

let harness: Harness;
let session: Session;
/** One negotiated `list_people` call (id `search-1`), read whole; most tests inspect it. */
let streamed: { headers: Response['headers']; frames: Frame[]; messages: Message[] };

before(async () => {
  harness = await createHarness();
  session = await harness.session(harness.auth.tokens['dev-user']);
  const response = await session.call('list_people', {}, { optIn: {}, id: 'search-1' });
  assert.equal(response.status, 200);
  const frames = parseSse(await response.text());
  streamed = { headers: response.headers, frames, messages: messagesOf(frames) };
});
after(() => harness.platform.server.settled());

async function jsonOf(response: Response): Promise<Message> {
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  return (await response.json()) as Message;
}

async function streamOf(response: Response): Promise<Message[]> {
  assert.equal(response.status, 200);
  return messagesOf(parseSse(await response.text()));
}

describe('negotiation matrix (contract §2)', () => {
  it('answers plain JSON without the opt-in, with the same final result as the stream', async () => {
    const plain = await jsonOf(await session.call('list_people', {}, { id: 'search-1' }));
    assert.equal(plain.id, 'search-1');
    assert.deepEqual(plain.result, streamed.messages.at(-1)?.result);
  });

  it('answers plain JSON for a Boolean opt-in', async () => {
    const response = await session.call('search_people', { query: 'ada' }, { optIn: true });
    const message = await jsonOf(response);
    assert.equal(message.result?.structuredContent.metadata?.completeness, 'partial');
  });

  it('keeps the runtime answer for a JSON-only Accept: no stream, no source notifications', async () => {
    const response = await session.call('list_people', {}, { optIn: {}, accept: 'application/json' });
    assert.equal(response.status, 400);
    assert.doesNotMatch(response.headers.get('content-type') ?? '', /event-stream/);
    assert.doesNotMatch(await response.text(), /source_result/);
  });

  it('answers a JSON-only Accept with the same 400 and -32600, opted in or not (docs/bos.md)', async () => {
    const answers = await Promise.all(
      [{ optIn: {} }, {}].map(async (options) => {
        const response = await session.call('list_people', {}, { ...options, accept: 'application/json' });
        const body = (await response.json()) as { error?: { code: number } };
        return [response.status, response.headers.get('content-type'), body.error?.code];
      }),
    );
    assert.deepEqual(answers, [
      [400, 'application/json', -32600],
      [400, 'application/json', -32600],
    ]);
  });

  it('keeps the runtime answer for a null id: an invalid request, never a stream', async () => {
    const response = await session.call('list_people', {}, { optIn: {}, id: null });
    assert.doesNotMatch(response.headers.get('content-type') ?? '', /event-stream/);
    const text = await response.text();
    assert.doesNotMatch(text, /source_result/);
    assert.doesNotMatch(text, /"result"/);
  });

  it('streams with the object opt-in, an SSE Accept and an integer id', async () => {
    const response = await session.call(
      'get_person',
      { record_ref: 'bos:person:none' },
      { optIn: {}, id: 7 },
    );
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    checkStream(await streamOf(response), 7, PEOPLE_CONTEXT);
  });
});

describe('a negotiated federated read (contract §2–§5)', () => {
  it('sends the SSE headers of the contract', () => {
    const { headers } = streamed;
    assert.match(headers.get('content-type') ?? '', /^text\/event-stream(;\s*charset=utf-8)?$/i);
    assert.equal(headers.get('cache-control'), 'no-cache');
    assert.equal(headers.get('x-accel-buffering'), 'no');
  });

  it('starts with the extension comment and frames every payload as event: message', () => {
    const { frames } = streamed;
    const firstContent = frames.find((f) => f.kind !== 'priming');
    assert.deepEqual(firstContent, { kind: 'comment', text: 'bos/source-results/v1' });
    assert.ok(frames.filter((f) => f.kind === 'message').length > 5);
  });

  it('streams pages 1..k and exactly one terminal per source, the final frame last', () => {
    const { pages, terminals, final } = checkStream(streamed.messages, 'search-1', PEOPLE_CONTEXT);
    assert.deepEqual([...terminals.keys()].sort(), [
      'archive/acme-archive',
      'crm/acme-crm',
      'directory/acme-directory',
      'hr/acme-hr',
      'legacy/acme-legacy',
    ]);
    // acme-directory's 500-record provider pages are split into delivery pages of at most 100.
    assert.ok((pages.get('directory/acme-directory')?.length ?? 0) >= 12);
    assert.equal(final.isError, true);
  });

  it('completes an empty source with pageIndex 0 and no records', () => {
    const { terminals, pages } = checkStream(streamed.messages, 'search-1', PEOPLE_CONTEXT);
    assert.equal(pages.has('archive/acme-archive'), false);
    const archive = terminals.get('archive/acme-archive');
    assert.equal(archive?.status, 'complete');
    assert.equal(archive?.pageIndex, 0);
  });

  it('ends a hanging source with a source_timeout error frame and keeps its delivered page', () => {
    const { terminals, pages, final } = checkStream(streamed.messages, 'search-1', PEOPLE_CONTEXT);
    const legacy = terminals.get('legacy/acme-legacy');
    assert.equal(legacy?.status, 'error');
    assert.deepEqual(legacy?.error, { code: 'source_timeout' });
    assert.equal(legacy?.pageIndex, pages.get('legacy/acme-legacy')?.length);
    assert.ok((legacy?.pageIndex ?? 0) >= 1);

    const { records, metadata } = operationResultOf(final);
    assert.equal(metadata.completeness, 'partial');
    assert.deepEqual(metadata.source_errors, [
      {
        source: { source_type: 'legacy', source_identity: 'acme-legacy' },
        error: { code: 'source_timeout' },
      },
    ]);
    const delivered = new Set(
      (pages.get('legacy/acme-legacy') ?? []).flatMap((p) =>
        p.records.flatMap((r) => r.sources.map((s) => s.external_id)),
      ),
    );
    const kept = new Set(
      records.flatMap((r) =>
        r.sources.filter((s) => pairKey(s) === 'legacy/acme-legacy').map((s) => s.external_id),
      ),
    );
    assert.deepEqual(
      kept,
      delivered,
      "the final result keeps exactly the timed-out source's delivered records",
    );
  });

  it('puts every delivered provenance entry in the final result exactly once', () => {
    const { pages, final } = checkStream(streamed.messages, 'search-1', PEOPLE_CONTEXT);
    const key = (s: { source_type: string; source_identity: string; external_id: string }) =>
      `${pairKey(s)}/${s.external_id}`;
    const delivered = [...pages.values()].flat().flatMap((p) => p.records.flatMap((r) => r.sources.map(key)));
    const final_ = operationResultOf(final).records.flatMap((r) => r.sources.map(key));
    assert.equal(new Set(final_).size, final_.length, 'no provenance entry twice in the final result');
    assert.deepEqual(new Set(final_), new Set(delivered));
  });

  it('writes the text block as the JSON of structuredContent', () => {
    const final = streamed.messages.at(-1);
    const text = final?.result?.content[0]?.text ?? '';
    assert.equal(final?.result?.content.length, 1);
    assert.deepEqual(JSON.parse(text), final?.result?.structuredContent);
  });
});
