/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return -- response bodies are untyped wire JSON */
/**
 * 2026-07-28 multi-round input: handlers read `inputResponses`/`requestState` from their context; a
 * needed capability the client did not declare is -32021; an echoed `requestState` must have been
 * issued for the same principal and request, unexpired, and is redeemable once (tampered, replayed,
 * expired, foreign or re-targeted states → HTTP 400 / -32602).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { McpInvocationContext, McpRequestContext } from '../../../../lambda/mcp/index.js';
import { makeServer, readJson } from '../helpers.js';
import { modernMeta, modernPost } from './helpers.js';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const elicitation = modernMeta({ 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } });
const principal = (subject: string): McpInvocationContext => ({ principal: { subject, scopes: [] } });

function confirmServer(now: { ms: number }) {
  const seen: McpRequestContext[] = [];
  const server = makeServer({ clock: () => now.ms, requestStateTtlMs: 1_000 });
  server.registerTool(
    { name: 'confirm', inputSchema: { type: 'object', properties: { item: { type: 'string' } } } },
    (args, ctx) => {
      seen.push(ctx);
      if (ctx.requestState === `confirm-${text(args.item)}` && ctx.inputResponses?.ok !== undefined) {
        return Promise.resolve({ content: [{ type: 'text', text: `confirmed ${text(args.item)}` }] });
      }
      return Promise.resolve({
        content: [],
        resultType: 'input_required',
        inputRequests: { ok: { method: 'elicitation/create', params: { message: 'ok?' } } },
        requestState: `confirm-${text(args.item)}`,
      });
    },
  );
  return { server, seen };
}

const round1 = (item = 'x') =>
  modernPost('r1', 'tools/call', { name: 'confirm', arguments: { item }, _meta: elicitation });
const round2 = (state: unknown, item = 'x', id: string | number = 'r2') =>
  modernPost(id, 'tools/call', {
    name: 'confirm',
    arguments: { item },
    requestState: state,
    inputResponses: { ok: { action: 'accept', content: {} } },
    _meta: elicitation,
  });

describe('stateless multi-round input', () => {
  it('returns input_required with the handler state on the wire and completes the retry with it', async () => {
    const { server, seen } = confirmServer({ ms: 1_000 });
    const first = await readJson(await server.handle(round1(), principal('alice')));
    assert.equal(first.status, 200);
    assert.equal(first.body.result.resultType, 'input_required');
    assert.equal(first.body.result.requestState, 'confirm-x');
    assert.equal('content' in first.body.result || 'ttlMs' in first.body.result, false);
    const second = await readJson(await server.handle(round2('confirm-x'), principal('alice')));
    assert.deepEqual(second.body.result.content, [{ type: 'text', text: 'confirmed x' }]);
    assert.equal(seen[1]?.requestState, 'confirm-x');
    assert.deepEqual(seen[1]?.inputResponses, { ok: { action: 'accept', content: {} } });
  });

  it('refuses tampered, replayed, foreign-principal and re-targeted states with 400 / -32602', async () => {
    const now = { ms: 1_000 };
    const { server } = confirmServer(now);
    const refused = async (request: Request, ctx: McpInvocationContext) => {
      const res = await readJson(await server.handle(request, ctx));
      return [res.status, res.body.error?.code];
    };
    await server.handle(round1(), principal('alice'));
    assert.deepEqual(await refused(round2('confirm-x-TAMPERED'), principal('alice')), [400, -32602]);
    assert.deepEqual(await refused(round2('confirm-x'), principal('mallory')), [400, -32602]);
    assert.deepEqual(await refused(round2('confirm-x', 'y'), principal('alice')), [400, -32602]);
    assert.deepEqual(await refused(round2(42), principal('alice')), [400, -32602]);
    // None of the refusals consumed the genuine state; it works once, then never again.
    const ok = await readJson(await server.handle(round2('confirm-x'), principal('alice')));
    assert.equal(ok.body.result.resultType, 'complete');
    assert.deepEqual(await refused(round2('confirm-x', 'x', 'r3'), principal('alice')), [400, -32602]);
  });

  it('refuses a state after its expiry', async () => {
    const now = { ms: 1_000 };
    const { server } = confirmServer(now);
    await server.handle(round1());
    now.ms += 1_000;
    const res = await readJson(await server.handle(round2('confirm-x')));
    assert.deepEqual([res.status, res.body.error.code], [400, -32602]);
  });

  it('answers -32021 with requiredCapabilities when the client did not declare what an input request needs', async () => {
    const { server } = confirmServer({ ms: 1_000 });
    const res = await readJson(
      await server.handle(modernPost(1, 'tools/call', { name: 'confirm', arguments: { item: 'x' } })),
    );
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.error, {
      code: -32021,
      message: 'Missing required client capability',
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  it('lets prompts and resources ask for input as well', async () => {
    const server = makeServer();
    server.registerPrompt({ name: 'ask' }, (_args, ctx) =>
      Promise.resolve(
        ctx.inputResponses === undefined
          ? { messages: [], resultType: 'input_required', requestState: 'later' }
          : { messages: [{ role: 'user', content: { type: 'text', text: String(ctx.requestState) } }] },
      ),
    );
    server.registerResource({ uri: 'file:///r', name: 'r' }, (uri, ctx) =>
      Promise.resolve(
        ctx.requestState === undefined
          ? { contents: [], resultType: 'input_required', requestState: 'again' }
          : { contents: [{ uri, text: 'ready' }] },
      ),
    );
    const prompt1 = await readJson(await server.handle(modernPost(1, 'prompts/get', { name: 'ask' })));
    assert.deepEqual(prompt1.body.result.requestState, 'later');
    const prompt2 = await readJson(
      await server.handle(
        modernPost(2, 'prompts/get', { name: 'ask', requestState: 'later', inputResponses: {} }),
      ),
    );
    assert.equal(prompt2.body.result.messages[0].content.text, 'later');
    const read1 = await readJson(await server.handle(modernPost(3, 'resources/read', { uri: 'file:///r' })));
    assert.equal(read1.body.result.resultType, 'input_required');
    const read2 = await readJson(
      await server.handle(modernPost(4, 'resources/read', { uri: 'file:///r', requestState: 'again' })),
    );
    assert.deepEqual([read2.body.result.contents[0].text, read2.body.result.ttlMs], ['ready', 0]);
  });
});
