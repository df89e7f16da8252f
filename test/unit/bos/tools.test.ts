import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  DEMO_COMPLETE_CONTEXT_HANDLE,
  DEMO_PEOPLE_CONTEXT_HANDLE,
  DEMO_SALES_CONTEXT_HANDLE,
} from '../../../lambda/bos/index.js';
import type { Harness, Session } from './platform-harness.js';
import { createHarness } from './platform-harness.js';
import type { Message } from './sse-frames.js';
import { messagesOf, operationResultOf, pairKey, parseSse } from './sse-frames.js';
import { checkStream } from './stream-invariants.js';

const SALES_CONTEXT = {
  context_handle: DEMO_SALES_CONTEXT_HANDLE,
  organization_name: 'Acme Corp',
  application_name: 'Sales',
  installation_name: 'Sandbox',
  role_label: 'Viewer',
  is_default: false,
};

let harness: Harness;
let session: Session;

before(async () => {
  harness = await createHarness();
  session = await harness.session(harness.auth.tokens['dev-user']);
});
after(() => harness.platform.server.settled());

const json = async (response: Response) => (await response.json()) as Message;
const stream = async (response: Response) => messagesOf(parseSse(await response.text()));

describe('discovery of the extension (contract §1)', () => {
  it('advertises bos/source-results/v1 in initialize and server/discover', async () => {
    const expected = {
      pageSize: 100,
      maxConcurrentSources: 8,
      contractUri: 'https://dfsm.ai/apps/bos/source-results-v1.html',
    };
    const discover = (await (await session.rpc('server/discover', {})).json()) as {
      result: { capabilities: { experimental: Record<string, unknown> } };
    };
    assert.deepEqual(discover.result.capabilities.experimental['bos/source-results/v1'], expected);
    assert.deepEqual(
      session.initialized.result.capabilities.experimental?.['bos/source-results/v1'],
      expected,
    );
  });

  it('lists every tool with its bos/effect', async () => {
    const list = (await (await session.rpc('tools/list', {})).json()) as {
      result: { tools: { name: string; _meta?: Record<string, unknown> }[] };
    };
    const names = list.result.tools.map((t) => t.name).sort();
    assert.deepEqual(names, [
      'bos_execute',
      'bos_list_contexts',
      'bos_list_tools',
      'get_person',
      'list_people',
      'search_people',
    ]);
    for (const tool of list.result.tools) assert.equal(tool._meta?.['bos/effect'], 'read', tool.name);
  });

  it('lists input schemas that are valid JSON Schema 2020-12 (the runtime compiles them on first call)', async () => {
    const list = (await (await session.rpc('tools/list', {})).json()) as {
      result: { tools: { name: string; inputSchema: Record<string, unknown> }[] };
    };
    const ajv = new Ajv2020({ strict: true, validateFormats: false });
    for (const tool of list.result.tools) {
      assert.equal(ajv.validateSchema(tool.inputSchema), true, `${tool.name}: ${ajv.errorsText()}`);
      assert.doesNotThrow(() => ajv.compile(tool.inputSchema), tool.name);
    }
  });
});

describe('bos_list_contexts and bos_list_tools', () => {
  it('lists the three dev-user contexts as public objects', async () => {
    const message = await json(await session.call('bos_list_contexts', {}));
    const contexts = message.result?.structuredContent.contexts as { context_handle: string }[];
    assert.deepEqual(
      contexts.map((c) => c.context_handle),
      [DEMO_PEOPLE_CONTEXT_HANDLE, DEMO_SALES_CONTEXT_HANDLE, DEMO_COMPLETE_CONTEXT_HANDLE],
    );
    assert.deepEqual(contexts[1], SALES_CONTEXT);
  });

  it('lists the permitted operations with complete schemas, effect and approval', async () => {
    const message = await json(
      await session.call('bos_list_tools', { context_handle: DEMO_SALES_CONTEXT_HANDLE }),
    );
    const tools = message.result?.structuredContent.tools as Record<string, unknown>[];
    assert.deepEqual(
      tools.map((t) => [t.name, t.effect, t.approval_required]),
      [
        ['search_people', 'read', false],
        ['get_person', 'read', false],
        ['list_people', 'read', false],
      ],
    );
    const search = tools[0]?.input_schema as { required: string[]; properties: Record<string, unknown> };
    assert.deepEqual(search.required, ['query']);
    assert.ok('limit' in search.properties);
  });

  it('answers a non-federated tool under opt-in with only the final frame', async () => {
    const response = await session.call('bos_list_contexts', {}, { optIn: {} });
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const messages = await stream(response);
    assert.equal(messages.length, 1);
    assert.equal(messages[0]?.id, 'call-1');
  });
});

describe('bos_execute (contract §5 identity envelope)', () => {
  it('wraps the streamed operation result in bos-identity-mcp/v2 with the context twice', async () => {
    const response = await session.call(
      'bos_execute',
      { context_handle: DEMO_SALES_CONTEXT_HANDLE, tool_name: 'list_people', arguments: {} },
      { optIn: {}, id: 'exec-1' },
    );
    const { final, pages, terminals } = checkStream(await stream(response), 'exec-1', SALES_CONTEXT);
    assert.equal(final.structuredContent.contract_version, 'bos-identity-mcp/v2');
    assert.deepEqual(final.structuredContent.context, SALES_CONTEXT);
    assert.deepEqual(final._meta?.['bos/context'], SALES_CONTEXT);
    const { records, metadata } = operationResultOf(final);
    assert.equal(metadata.completeness, 'complete');
    assert.deepEqual(metadata.source_errors, []);
    assert.equal(final.isError, false);
    assert.equal(records.length, 180);
    assert.deepEqual([...terminals.keys()], ['crm/acme-crm']);
    assert.equal(terminals.get('crm/acme-crm')?.status, 'complete');
    assert.equal(pages.get('crm/acme-crm')?.length, 2);
  });

  it('returns the same envelope as plain JSON without the opt-in', async () => {
    const args = {
      context_handle: DEMO_SALES_CONTEXT_HANDLE,
      tool_name: 'search_people',
      arguments: { query: 'a' },
    };
    const plain = await json(await session.call('bos_execute', args));
    const streamed = (await stream(await session.call('bos_execute', args, { optIn: {} }))).at(-1);
    assert.deepEqual(plain.result, streamed?.result);
    assert.equal(plain.result?.structuredContent.contract_version, 'bos-identity-mcp/v2');
  });

  it('refuses operation arguments that do not match the schema with -32602', async () => {
    const message = await json(
      await session.call('bos_execute', {
        context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
        tool_name: 'search_people',
        arguments: { limit: 3 },
      }),
    );
    assert.equal(message.error?.code, -32602);
    assert.match(message.error?.message ?? '', /query/);
  });

  it('refuses an operation the context does not permit with -32602', async () => {
    const message = await json(
      await session.call('bos_execute', {
        context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
        tool_name: 'delete_everyone',
        arguments: {},
      }),
    );
    assert.equal(message.error?.code, -32602);
  });

  it('resolves a record_ref from a search with get_person', async () => {
    const search = await json(
      await session.call('bos_execute', {
        context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
        tool_name: 'search_people',
        arguments: { query: 'a', limit: 5 },
      }),
    );
    const first = operationResultOf(search.result as never).records[0];
    assert.ok(first !== undefined);
    const got = await json(await session.call('get_person', { record_ref: first.record_ref }));
    const { records } = operationResultOf(got.result as never);
    assert.deepEqual(
      records.map((r) => r.record_ref),
      [first.record_ref],
    );
  });
});

describe('direct federated tools (contract §5)', () => {
  it('put records at structuredContent.result and metadata beside them, partial with a failed source', async () => {
    const message = await json(await session.call('search_people', { query: 'a' }));
    const result = message.result;
    assert.ok(result !== undefined);
    assert.ok(Array.isArray(result.structuredContent.result));
    assert.equal(result.structuredContent.contract_version, undefined);
    assert.equal(result.isError, true);
    const { metadata, records } = operationResultOf(result);
    assert.equal(metadata.completeness, 'partial');
    assert.equal(metadata.result_count, records.length);
    assert.deepEqual(
      metadata.source_errors.map((e) => [pairKey(e.source), e.error.code]),
      [['legacy/acme-legacy', 'source_timeout']],
    );
  });
});
