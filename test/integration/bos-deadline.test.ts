/**
 * Deadlines through the whole local stack (contract §5 "Operation deadlines remain in
 * force. A source timeout cancels that source while retaining records successfully delivered"). The function
 * has a 5 s timeout, enforced by our Runtime API as Lambda enforces it (the runtime process is killed), and
 * reads the `hanging` fixture preset: acme-hr and acme-crm deliver pages and then hang, acme-legacy hangs at
 * once, none with a timeout of its own, so only the operation budget (remaining time − BOS_DEADLINE_RESERVE_MS,
 * 1,000 ms here) ends them. The final frame must still arrive before the deadline.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import type { BosStack } from '../helpers/bos-stack.js';
import { openSession, optInMeta, post, startBosStack, toolCall } from '../helpers/bos-stack.js';
import type { Message, ReadStream } from '../helpers/bos-stream.js';
import { emptyRead, operationResultOf, provenanceKey, readStream } from '../helpers/bos-stream.js';
import { javaSuite } from '../helpers/java.js';

const TIMEOUT_SECONDS = 5;
const UNFINISHED = ['crm/acme-crm', 'hr/acme-hr', 'legacy/acme-legacy'];
const listPeople = { context_handle: DEMO_PEOPLE_CONTEXT_HANDLE, tool_name: 'list_people', arguments: {} };

describe(
  'deadlines through the local stack (5 s function timeout, hanging sources)',
  javaSuite(300_000),
  () => {
    let bos: BosStack;
    let sessionId: string;
    let streamed: ReadStream;
    let streamedMs: number;
    let killsBefore: number;
    let cut: unknown;
    let cutAfterMs: number | undefined;

    before(async () => {
      bos = await startBosStack({
        name: 'bos-deadline',
        timeoutSeconds: TIMEOUT_SECONDS,
        poolSize: 1,
        env: { BOS_FIXTURE_PRESET: 'hanging' },
      });
      ({ sessionId } = await openSession(bos.url, bos.token('dev-user')));
      killsBefore = bos.stack.pool.timeoutKills;
      const startedAt = Date.now();
      const response = await post(bos.url, {
        token: bos.token('dev-user'),
        sessionId,
        body: toolCall('deadline-1', 'bos_execute', listPeople, optInMeta()),
      });
      // A stream cut by the timeout kill rejects the body read; keep that as a finding the tests report.
      streamed = await readStream(response).catch((error: unknown) => {
        cutAfterMs = Date.now() - startedAt;
        cut = error;
        return emptyRead(response);
      });
      streamedMs = Date.now() - startedAt;
    });
    after(async () => {
      await bos?.close();
    });

    it('delivers the final frame before the 5 s deadline: the stream ends normally and the runtime is never killed', async () => {
      // Our Runtime API kills the runtime at the deadline, as Lambda does, which would cut the stream before
      // the final frame; so a whole stream and no timeout kill, checked once the deadline has surely passed,
      // prove the final frame beat it. (The spawn count is no measure: a request may get a fresh environment
      // while the previous one is still finishing, as on Lambda.)
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, TIMEOUT_SECONDS * 1000 + 500 - streamedMs)),
      );
      assert.equal(cut, undefined, `the stream was cut after ${cutAfterMs} ms: ${String(cut)}`);
      assert.equal(streamed.final?.id, 'deadline-1');
      assert.ok(streamed.final?.result !== undefined, `final frame after ${streamedMs} ms`);
      assert.equal(bos.stack.pool.timeoutKills, killsBefore, 'no timeout kill');
    });

    it('ends each unfinished source with a source_timeout error frame, after the pages it delivered', () => {
      for (const key of UNFINISHED) {
        const [terminal, ...more] = streamed.terminals.get(key) ?? [];
        assert.equal(more.length, 0, `${key}: one terminal`);
        assert.equal(terminal?.status, 'error', key);
        assert.deepEqual(terminal?.error, { code: 'source_timeout' }, key);
        assert.equal(terminal?.pageIndex, streamed.pages.get(key)?.length ?? 0, key);
      }
      assert.ok((streamed.pages.get('hr/acme-hr')?.length ?? 0) >= 1);
      assert.ok((streamed.pages.get('crm/acme-crm')?.length ?? 0) >= 1);
      assert.equal(streamed.pages.has('legacy/acme-legacy'), false);
      assert.equal(streamed.terminals.get('directory/acme-directory')?.[0]?.status, 'complete');
      assert.equal(streamed.terminals.get('archive/acme-archive')?.[0]?.status, 'complete');
    });

    it("keeps the timed-out sources' delivered pages in the final result, which is partial", () => {
      const result = streamed.final?.result ?? assert.fail('no final frame');
      const { records, metadata } = operationResultOf(result);
      assert.equal(result.isError, true);
      assert.equal(metadata.completeness, 'partial');
      assert.deepEqual(
        metadata.source_errors
          .map((e) => `${e.source.source_type}/${e.source.source_identity}:${e.error.code}`)
          .sort(),
        UNFINISHED.map((key) => `${key}:source_timeout`),
      );
      const final = new Set(records.flatMap((r) => r.sources.map(provenanceKey)));
      for (const key of ['hr/acme-hr', 'crm/acme-crm']) {
        const delivered = (streamed.pages.get(key) ?? []).flatMap((p) =>
          p.records.flatMap((r) => r.sources.map(provenanceKey)),
        );
        assert.ok(delivered.length > 0, key);
        for (const entry of delivered) assert.ok(final.has(entry), `${entry} is in the final result`);
      }
    });

    it('answers the same call as plain JSON before the deadline (no kill), with the same partial metadata', async () => {
      const startedAt = Date.now();
      const response = await post(bos.url, {
        token: bos.token('dev-user'),
        sessionId,
        body: toolCall('deadline-2', 'bos_execute', listPeople),
      });
      const message = (await response.json()) as Message;
      const elapsedMs = Date.now() - startedAt;
      assert.ok(elapsedMs < TIMEOUT_SECONDS * 1000, `JSON answer after ${elapsedMs} ms`);
      const { metadata } = operationResultOf(message.result ?? assert.fail('no result'));
      assert.equal(metadata.completeness, 'partial');
      assert.equal(metadata.source_errors.length, UNFINISHED.length);
    });
  },
);
