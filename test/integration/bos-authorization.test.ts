/**
 * Authorization on the BOS platform through the whole local stack: `outsider` sees no
 * Acme context and cannot use a dev-user handle, refused exactly as for an unknown handle; the Sales context
 * reads only `acme-crm`, and no record of another source reaches its pages or its final result
 * (contract §2 "This extension grants no additional access").
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_PEOPLE_CONTEXT_HANDLE, DEMO_SALES_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import type { BosStack } from '../helpers/bos-stack.js';
import { openSession, optInMeta, post, startBosStack, toolCall } from '../helpers/bos-stack.js';
import type { Message, ReadStream, RecordJson } from '../helpers/bos-stream.js';
import { operationResultOf, pairKey, readStream } from '../helpers/bos-stream.js';
import { javaSuite } from '../helpers/java.js';

const UNKNOWN_HANDLE = 'ctx_00000000000000000000000000000000';
const execute = (handle: string, tool: string, args: Record<string, unknown>) => ({
  context_handle: handle,
  tool_name: tool,
  arguments: args,
});

/** Every `type/identity` a record's provenance names. */
const sourcesOf = (records: RecordJson[]) => new Set(records.flatMap((r) => r.sources.map(pairKey)));

describe('authorization on the BOS platform through the local stack', javaSuite(600_000), () => {
  let bos: BosStack;
  const sessions = new Map<string, string>();

  const call = async (user: 'dev-user' | 'outsider', body: unknown): Promise<Response> =>
    post(bos.url, { token: bos.token(user), sessionId: sessions.get(user) ?? '', body });

  /** The JSON-RPC answer, whether it came as JSON or as the one frame of a stream. */
  async function answerOf(response: Response): Promise<Message[]> {
    return /^text\/event-stream/.test(response.headers.get('content-type') ?? '')
      ? (await readStream(response)).messages
      : [(await response.json()) as Message];
  }

  before(async () => {
    bos = await startBosStack({ name: 'bos-authorization', env: { BOS_FIXTURE_LATENCY_SCALE: '0.25' } });
    for (const user of ['dev-user', 'outsider'] as const)
      sessions.set(user, (await openSession(bos.url, bos.token(user))).sessionId);
  });
  after(async () => {
    await bos?.close();
  });

  describe('outsider', () => {
    it('sees no Acme context in bos_list_contexts', async () => {
      const [message] = await answerOf(await call('outsider', toolCall(1, 'bos_list_contexts', {})));
      assert.deepEqual(message?.result?.structuredContent, { contexts: [] });
    });

    it('cannot execute with a dev-user handle, even opted in to streaming: no source notification, no record', async () => {
      const response = await call(
        'outsider',
        toolCall(2, 'bos_execute', execute(DEMO_PEOPLE_CONTEXT_HANDLE, 'list_people', {}), optInMeta()),
      );
      const messages = await answerOf(response);
      assert.equal(messages.length, 1);
      assert.equal(messages[0]?.error?.code, -32602);
      assert.equal(messages[0]?.result, undefined);
    });

    it('is refused for a dev-user handle exactly as for an unknown handle', async () => {
      for (const tool of ['bos_execute', 'bos_list_tools'] as const) {
        const args = (handle: string) =>
          tool === 'bos_execute' ? execute(handle, 'list_people', {}) : { context_handle: handle };
        const [granted] = await answerOf(
          await call('outsider', toolCall(3, tool, args(DEMO_PEOPLE_CONTEXT_HANDLE))),
        );
        const [unknown] = await answerOf(await call('outsider', toolCall(3, tool, args(UNKNOWN_HANDLE))));
        assert.ok(granted?.error !== undefined, `${tool} refuses the dev-user handle`);
        assert.deepEqual(granted, unknown, tool);
      }
    });

    it('has no default context for the direct federated tools', async () => {
      const [message] = await answerOf(await call('outsider', toolCall(4, 'search_people', { query: 'a' })));
      assert.equal(message?.result?.isError, true);
      assert.equal(message?.result?.structuredContent, undefined);
    });
  });

  describe('dev-user in the Sales context (acme-crm only)', () => {
    let streamed: ReadStream;

    before(async () => {
      streamed = await readStream(
        await call(
          'dev-user',
          toolCall(
            'sales-1',
            'bos_execute',
            execute(DEMO_SALES_CONTEXT_HANDLE, 'list_people', {}),
            optInMeta(),
          ),
        ),
      );
    });

    it('streams pages and a terminal of acme-crm only', () => {
      assert.ok(streamed.notifications.length >= 2);
      assert.deepEqual(
        new Set(streamed.notifications.map((n) => pairKey(n.source))),
        new Set(['crm/acme-crm']),
      );
      assert.deepEqual(
        sourcesOf(streamed.notifications.flatMap((n) => n.records)),
        new Set(['crm/acme-crm']),
      );
    });

    it('returns only acme-crm records and provenance in the final result', () => {
      const result = streamed.final?.result ?? assert.fail('no final frame');
      const { records, metadata } = operationResultOf(result);
      assert.ok(records.length > 0);
      assert.deepEqual(sourcesOf(records), new Set(['crm/acme-crm']));
      assert.deepEqual(metadata.provenance.map(pairKey), ['crm/acme-crm']);
      assert.equal(metadata.completeness, 'complete');
    });

    it('drops the hr provenance of a person the People context merges across crm and hr', async () => {
      // Prepare: a person the People context knows from both crm and hr (60 % of crm shares an hr email).
      const people = await answerOf(
        await call(
          'dev-user',
          toolCall(5, 'bos_execute', execute(DEMO_PEOPLE_CONTEXT_HANDLE, 'list_people', {})),
        ),
      );
      const merged = operationResultOf(people[0]?.result ?? assert.fail('no result')).records.find((r) => {
        const sources = sourcesOf([r]);
        return sources.has('crm/acme-crm') && sources.has('hr/acme-hr');
      });
      assert.ok(merged !== undefined, 'the People context merges crm and hr records');
      // Act
      const response = await call(
        'dev-user',
        toolCall(
          6,
          'bos_execute',
          execute(DEMO_SALES_CONTEXT_HANDLE, 'get_person', { record_ref: merged.record_ref }),
          optInMeta(),
        ),
      );
      const read = await readStream(response);
      // Assess
      const { records } = operationResultOf(read.final?.result ?? assert.fail('no final frame'));
      // Its record_ref digests its first provenance key, a crm one (crm sorts before hr), so Sales finds it.
      assert.equal(records.length, 1);
      assert.equal(records[0]?.record_ref, merged.record_ref);
      assert.deepEqual(sourcesOf(records), new Set(['crm/acme-crm']));
      assert.deepEqual(sourcesOf(read.notifications.flatMap((n) => n.records)), new Set(['crm/acme-crm']));
    });
  });
});
