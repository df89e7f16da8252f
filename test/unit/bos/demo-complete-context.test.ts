/**
 * The demo directory has one context whose sources all complete, beside the People Directory whose
 * `acme-legacy` times out on purpose: a generic client sees a success there (`isError: false`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  DEMO_COMPLETE_CONTEXT_HANDLE,
  DEMO_DIRECTORY_DOCUMENT,
  DEMO_PEOPLE_CONTEXT_HANDLE,
} from '../../../lambda/bos/index.js';
import type { Harness, Session } from './platform-harness.js';
import { createHarness } from './platform-harness.js';
import type { Message } from './sse-frames.js';

let harness: Harness;
let devUser: Session;

before(async () => {
  harness = await createHarness();
  devUser = await harness.session(harness.auth.tokens['dev-user']);
});
after(() => harness.platform.server.settled());

interface ToolResult {
  isError?: boolean;
  structuredContent: {
    result: { result: unknown[]; metadata: { completeness: string; source_errors: unknown[] } };
  };
}

async function search(handle: string): Promise<ToolResult> {
  const response = await devUser.call('bos_execute', {
    context_handle: handle,
    tool_name: 'search_people',
    arguments: { query: 'a' },
  });
  const message = (await response.json()) as Message;
  return message.result as unknown as ToolResult;
}

describe('the demo context whose sources all complete', () => {
  it('is granted to dev-user and reads every demo source but acme-legacy', () => {
    const context = DEMO_DIRECTORY_DOCUMENT.contexts.find(
      (c) => c.context_handle === DEMO_COMPLETE_CONTEXT_HANDLE,
    );
    assert.deepEqual(context?.source_ids, ['acme-hr', 'acme-crm', 'acme-directory', 'acme-archive']);
    const devUserGrants = DEMO_DIRECTORY_DOCUMENT.principals.find((p) => p.subject === 'dev-user')?.grants;
    assert.ok(devUserGrants?.includes(DEMO_COMPLETE_CONTEXT_HANDLE));
  });

  it('answers a search with a complete result and isError false', async () => {
    const result = await search(DEMO_COMPLETE_CONTEXT_HANDLE);
    assert.equal(result.isError, false);
    assert.equal(result.structuredContent.result.metadata.completeness, 'complete');
    assert.deepEqual(result.structuredContent.result.metadata.source_errors, []);
    assert.ok(result.structuredContent.result.result.length > 0);
  });

  it('leaves the People Directory partial, as the README shows', async () => {
    const result = await search(DEMO_PEOPLE_CONTEXT_HANDLE);
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent.result.metadata.completeness, 'partial');
  });
});
