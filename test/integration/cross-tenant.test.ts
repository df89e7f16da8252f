/**
 * Authorization, cross-tenant: `outsider` cannot list, describe or execute anything of Acme in any
 * mode — {JSON, streaming opt-in} × {2025-11-25 session-ful, 2026-07-28 stateless} — whether it sends a
 * real dev-user handle, a guessed well-formed one or a malformed one; the real and the guessed handle get
 * byte-identical answers (JSON-RPC id aside), and no Acme name, handle or record appears in any answer.
 * A dev-user session id replayed by outsider gets 404 exactly like an unknown one, and the Sales context
 * stays `acme-crm` only in stateless streaming mode (contract §2 "This extension grants no additional access").
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  DEMO_COMPLETE_CONTEXT_HANDLE,
  DEMO_PEOPLE_CONTEXT_HANDLE,
  DEMO_SALES_CONTEXT_HANDLE,
} from '../../lambda/bos/index.js';
import type { BosStack } from '../helpers/bos-stack.js';
import {
  openSession,
  optInMeta,
  post,
  postStateless,
  SSE_ACCEPT,
  startBosStack,
  statelessMeta,
  toolCall,
} from '../helpers/bos-stack.js';
import type { Message, RecordJson } from '../helpers/bos-stream.js';
import { messagesOf, operationResultOf, pairKey, parseSse } from '../helpers/bos-stream.js';
import { javaSuite } from '../helpers/java.js';

type User = 'dev-user' | 'outsider';

/** One cell of the mode matrix. */
interface Mode {
  name: string;
  stateless: boolean;
  stream: boolean;
}

const MODES: Mode[] = [
  { name: 'session-ful JSON', stateless: false, stream: false },
  { name: 'session-ful streaming opt-in', stateless: false, stream: true },
  { name: 'stateless JSON', stateless: true, stream: false },
  { name: 'stateless streaming opt-in', stateless: true, stream: true },
];

/** A well-formed handle nobody holds (`ctx_` + 128 random bits, like a real one). */
const GUESSED = `ctx_${randomBytes(16).toString('hex')}`;
/** Not a handle at all (fits the schema's length, fails the `ctx_` + hex shape). */
const MALFORMED = 'ctx_not-a-handle!';

/** An answer read whole: status, media type, body, and its JSON-RPC messages. */
interface Answer {
  status: number;
  contentType: string;
  body: string;
  messages: Message[];
}

/** The body with every JSON-RPC `"id":…` member blanked, so answers to different ids compare. */
const withoutId = (body: string) => body.replace(/"id":(?:"(?:[^"\\]|\\.)*"|-?\d+|null)/g, '"id":_');

const sourcesOf = (records: RecordJson[]) => new Set(records.flatMap((r) => r.sources.map(pairKey)));

describe('cross-tenant isolation through the local stack', javaSuite(600_000), () => {
  let bos: BosStack;
  const sessions = new Map<User, string>();
  /** Everything of Acme that outsider must never see: names, handles, source ids, record fields. */
  const acme = new Set<string>([
    'Acme',
    'acme',
    DEMO_PEOPLE_CONTEXT_HANDLE,
    DEMO_SALES_CONTEXT_HANDLE,
    DEMO_COMPLETE_CONTEXT_HANDLE,
  ]);
  /** A record_ref of a real Acme person (so get_person asks for something that exists). */
  let recordRef = '';
  let nextId = 1;

  /** One `tools/call` as `user` in `mode`. */
  async function call(user: User, mode: Mode, name: string, args: Record<string, unknown>): Promise<Answer> {
    const id = nextId++;
    const token = bos.token(user);
    const response = mode.stateless
      ? await postStateless(bos.url, { token, body: toolCall(id, name, args, statelessMeta(mode.stream)) })
      : await post(bos.url, {
          token,
          sessionId: sessions.get(user) ?? '',
          body: toolCall(id, name, args, mode.stream ? optInMeta() : undefined),
        });
    return read(response);
  }

  async function read(response: Response): Promise<Answer> {
    const body = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    const messages = /^text\/event-stream/.test(contentType)
      ? messagesOf(parseSse(body))
      : body === ''
        ? []
        : [JSON.parse(body) as Message];
    return { status: response.status, contentType, body, messages };
  }

  /** No Acme value and no source notification in the answer. */
  function assertNothingOfAcme(answer: Answer, what: string): void {
    for (const value of acme)
      assert.ok(!answer.body.includes(value), `${what} leaks "${value}": ${answer.body}`);
    assert.ok(
      !answer.body.includes('notifications/bos/source_result'),
      `${what} streamed a source notification`,
    );
  }

  /** A refusal that keeps its JSON semantics in every mode (contract §2: validation failures keep them). */
  function assertRefusedAsJson(answer: Answer, what: string): void {
    assert.match(answer.contentType, /^application\/json/, what);
    assert.equal(answer.messages.length, 1, what);
    assert.equal(answer.messages[0]?.error?.code, -32602, what);
    assert.equal(answer.messages[0]?.result, undefined, what);
    assertNothingOfAcme(answer, what);
  }

  before(async () => {
    bos = await startBosStack({ name: 'cross-tenant', env: { BOS_FIXTURE_LATENCY_SCALE: '0.25' } });
    for (const user of ['dev-user', 'outsider'] as const)
      sessions.set(user, (await openSession(bos.url, bos.token(user))).sessionId);
    // Collect what outsider must never see from dev-user's own view: contexts and every People record.
    const json = MODES[0] ?? assert.fail('no mode');
    const contexts = (await call('dev-user', json, 'bos_list_contexts', {})).messages[0]?.result
      ?.structuredContent as { contexts: Array<Record<string, unknown>> } | undefined;
    for (const context of contexts?.contexts ?? [])
      for (const key of ['context_handle', 'organization_name', 'application_name', 'installation_name'])
        acme.add(String(context[key]));
    const people = await call('dev-user', json, 'bos_execute', {
      context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
      tool_name: 'list_people',
      arguments: {},
    });
    const { records } = operationResultOf(people.messages[0]?.result ?? assert.fail('no People records'));
    for (const record of records as Array<
      RecordJson & Partial<Record<'display_name' | 'email' | 'phone', string | null>>
    >) {
      acme.add(record.record_ref);
      for (const value of [record.display_name, record.email, record.phone]) if (value) acme.add(value);
      for (const source of record.sources) acme.add(source.source_identity);
    }
    recordRef = records[0]?.record_ref ?? assert.fail('the People context has records');
    assert.ok(acme.size > 100, `collected ${acme.size} Acme values`);
  });
  after(async () => {
    await bos?.close();
  });

  for (const mode of MODES) {
    describe(`${mode.name}`, () => {
      it('lets dev-user run bos_execute in the People context, so the refusals below are about grants', async () => {
        const answer = await call('dev-user', mode, 'bos_execute', {
          context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
          tool_name: 'search_people',
          arguments: { query: 'a' },
        });
        assert.equal(answer.status, 200);
        assert.match(answer.contentType, mode.stream ? /^text\/event-stream/ : /^application\/json/);
        if (mode.stream) assert.match(answer.body, /notifications\/bos\/source_result/);
        const { records } = operationResultOf(answer.messages.at(-1)?.result ?? assert.fail('no result'));
        assert.ok(records.length > 0);
      });

      it('shows outsider no context in bos_list_contexts and no Acme value in tools/list', async () => {
        const listed = await call('outsider', mode, 'bos_list_contexts', {});
        assert.equal(listed.status, 200);
        assert.deepEqual(listed.messages.at(-1)?.result?.structuredContent, { contexts: [] });
        assertNothingOfAcme(listed, 'bos_list_contexts');
        const token = bos.token('outsider');
        const body = {
          jsonrpc: '2.0',
          id: nextId++,
          method: 'tools/list',
          params: mode.stateless ? { _meta: statelessMeta(mode.stream) } : {},
        };
        const tools = await read(
          mode.stateless
            ? await postStateless(bos.url, { token, body })
            : await post(bos.url, { token, sessionId: sessions.get('outsider') ?? '', body }),
        );
        assert.equal(tools.status, 200);
        assertNothingOfAcme(tools, 'tools/list');
      });

      const handleCalls: Array<[string, string, (handle: string) => Record<string, unknown>]> = [
        ['bos_list_tools', 'bos_list_tools', (h) => ({ context_handle: h })],
        ...['list_people', 'search_people', 'get_person'].map(
          (operation): [string, string, (handle: string) => Record<string, unknown>] => [
            `bos_execute ${operation}`,
            'bos_execute',
            (h) => ({
              context_handle: h,
              tool_name: operation,
              arguments:
                operation === 'search_people'
                  ? { query: 'a' }
                  : operation === 'get_person'
                    ? { record_ref: recordRef }
                    : {},
            }),
          ],
        ),
        // The direct tools take no handle: one is refused by their schema, identically for every handle.
        ['search_people with a handle', 'search_people', (h) => ({ query: 'a', context_handle: h })],
        ['get_person with a handle', 'get_person', (h) => ({ record_ref: recordRef, context_handle: h })],
        ['list_people with a handle', 'list_people', (h) => ({ context_handle: h })],
      ];

      for (const [what, tool, args] of handleCalls) {
        it(`refuses outsider's ${what} for a real dev-user handle byte-identically to a guessed one, and a malformed one alike`, async () => {
          const real = await call('outsider', mode, tool, args(DEMO_PEOPLE_CONTEXT_HANDLE));
          const sales = await call('outsider', mode, tool, args(DEMO_SALES_CONTEXT_HANDLE));
          const guessed = await call('outsider', mode, tool, args(GUESSED));
          const malformed = await call('outsider', mode, tool, args(MALFORMED));
          for (const [name, answer] of [
            ['real', real],
            ['real Sales', sales],
            ['guessed', guessed],
            ['malformed', malformed],
          ] as const)
            assertRefusedAsJson(answer, `${what} (${name} handle)`);
          const shape = (a: Answer) => [a.status, a.contentType, withoutId(a.body)];
          assert.deepEqual(shape(real), shape(guessed));
          assert.deepEqual(shape(sales), shape(guessed));
          assert.deepEqual(shape(malformed), shape(guessed));
        });
      }

      it("finds no default context for outsider's direct search_people, get_person and list_people", async () => {
        for (const [tool, args] of [
          ['search_people', { query: 'a' }],
          ['get_person', { record_ref: recordRef }],
          ['list_people', {}],
        ] as const) {
          const answer = await call('outsider', mode, tool, args);
          assert.equal(answer.status, 200, tool);
          // A tool error (the grant check runs before any stream opens), never records.
          assert.match(answer.contentType, /^application\/json/, tool);
          const result = answer.messages.at(-1)?.result;
          assert.equal(result?.isError, true, tool);
          assert.equal(result?.structuredContent, undefined, tool);
          assertNothingOfAcme(answer, tool);
        }
      });
    });
  }

  describe('a session id replayed by another principal', () => {
    const unknownSession = '00000000-0000-4000-8000-000000000000';
    const raw = (method: 'GET' | 'DELETE', sessionId: string) =>
      fetch(bos.url, {
        method,
        headers: {
          Authorization: `Bearer ${bos.token('outsider')}`,
          Accept: method === 'GET' ? 'text/event-stream' : SSE_ACCEPT,
          'Mcp-Session-Id': sessionId,
          'MCP-Protocol-Version': '2025-11-25',
        },
      });

    it('gets 404 on POST, GET and DELETE exactly like an unknown session id, and the session lives on', async () => {
      const devSession = sessions.get('dev-user') ?? assert.fail('no dev-user session');
      const postAs = (sessionId: string) =>
        post(bos.url, {
          token: bos.token('outsider'),
          sessionId,
          body: toolCall(7, 'bos_list_contexts', {}),
        });
      for (const [method, send] of [
        ['POST', postAs],
        ['GET', (s: string) => raw('GET', s)],
        ['DELETE', (s: string) => raw('DELETE', s)],
      ] as const) {
        const replayed = await read(await send(devSession));
        const unknown = await read(await send(unknownSession));
        assert.equal(replayed.status, 404, method);
        assert.deepEqual(
          [replayed.status, replayed.contentType, replayed.body],
          [unknown.status, unknown.contentType, unknown.body],
          method,
        );
        assertNothingOfAcme(replayed, method);
      }
      // outsider's DELETE did not end dev-user's session.
      const own = await call('dev-user', MODES[0] ?? assert.fail('no mode'), 'bos_list_contexts', {});
      assert.equal(own.status, 200);
      const contexts = own.messages[0]?.result?.structuredContent as { contexts: unknown[] } | undefined;
      assert.equal(contexts?.contexts.length, 3);
    });

    it("runs a stateless request carrying dev-user's session id as outsider (the header selects the stateless shape first)", async () => {
      const answer = await read(
        await postStateless(bos.url, {
          token: bos.token('outsider'),
          headers: { 'Mcp-Session-Id': sessions.get('dev-user') ?? '' },
          body: toolCall(8, 'bos_list_contexts', {}, statelessMeta()),
        }),
      );
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.messages[0]?.result?.structuredContent, { contexts: [] });
      assertNothingOfAcme(answer, 'stateless bos_list_contexts');
    });
  });

  describe('dev-user in the Sales context (acme-crm only), stateless streaming', () => {
    const statelessStream = MODES[3] ?? assert.fail('no mode');

    for (const [operation, args] of [
      ['list_people', {}],
      ['search_people', { query: 'a' }],
    ] as const) {
      it(`streams ${operation} pages, terminals and a final result of acme-crm only`, async () => {
        const answer = await call('dev-user', statelessStream, 'bos_execute', {
          context_handle: DEMO_SALES_CONTEXT_HANDLE,
          tool_name: operation,
          arguments: args,
        });
        assert.match(answer.contentType, /^text\/event-stream/);
        const notifications = answer.messages
          .filter((m) => m.method === 'notifications/bos/source_result')
          .map((m) => m.params ?? assert.fail('a notification without params'));
        assert.ok(notifications.length >= 2, 'at least one page and a terminal');
        assert.deepEqual(new Set(notifications.map((n) => pairKey(n.source))), new Set(['crm/acme-crm']));
        assert.deepEqual(sourcesOf(notifications.flatMap((n) => n.records)), new Set(['crm/acme-crm']));
        const final = answer.messages.at(-1)?.result ?? assert.fail('no final frame');
        assert.equal((final as unknown as Record<string, unknown>)['resultType'], 'complete');
        const { records, metadata } = operationResultOf(final);
        assert.ok(records.length > 0);
        assert.deepEqual(sourcesOf(records), new Set(['crm/acme-crm']));
        assert.deepEqual(metadata.provenance.map(pairKey), ['crm/acme-crm']);
      });
    }
  });
});
