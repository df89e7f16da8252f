import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { directResult, envelopeResult } from '../../../lambda/bos/tools/index.js';
import type { FederationResult } from '../../../lambda/federation/index.js';
import type { McpRequestContext } from '../../../lambda/mcp/index.js';

const context = {
  context_handle: 'ctx_x',
  organization_name: 'O',
  application_name: 'A',
  installation_name: 'I',
  role_label: 'R',
  is_default: true,
};

function federation(completeness: 'complete' | 'partial'): FederationResult {
  return {
    records: [],
    metadata: {
      retrieval_mode: 'live_provider',
      cache_baseline_applied: false,
      source_delta_applied: false,
      completeness,
      result_count: 0,
      observed_at: '2026-10-08T12:00:00+00:00',
      provenance: [],
      source_errors:
        completeness === 'partial'
          ? [{ source: { source_type: 't', source_identity: 's' }, error: { code: 'rate_limited' } }]
          : [],
    },
  };
}

const requestContext = (shape: McpRequestContext['shape']) => ({ shape }) as McpRequestContext;

describe('tool results', () => {
  it('adds resultType "complete" exactly in the stateless (2026-07-28) shape', () => {
    const stateless = directResult(federation('complete'), requestContext('stateless'));
    const sessionful = directResult(federation('complete'), requestContext('sessionful'));
    assert.equal(stateless.resultType, 'complete');
    assert.equal('resultType' in sessionful, false);
    assert.equal(JSON.stringify(stateless).match(/"resultType"/g)?.length, 1);
  });

  it('keeps resultType "complete" beside partial read metadata', () => {
    const result = envelopeResult(federation('partial'), context, requestContext('stateless'));
    assert.equal(result.resultType, 'complete');
    assert.equal(result.isError, true);
  });

  it('marks an all-source failure with zero records partial and an error (contract §5)', () => {
    const result = directResult(federation('partial'), requestContext('sessionful'));
    assert.equal(result.isError, true);
    assert.deepEqual(result.structuredContent?.result, []);
  });

  it('gives a complete empty result complete metadata and no error', () => {
    const result = envelopeResult(federation('complete'), context, requestContext('sessionful'));
    assert.equal(result.isError, false);
    assert.deepEqual(Object.keys(result), ['content', 'structuredContent', 'isError', '_meta']);
    assert.deepEqual(result._meta, { 'bos/context': context });
  });
});
