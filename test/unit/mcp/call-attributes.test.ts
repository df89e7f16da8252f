/**
 * The telemetry attributes of a call: every value from a closed set, because the body and headers are client
 * text that would otherwise reach log keys and metric dimensions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callAttributes } from '../../../lambda/mcp/methods/call-attributes.js';

const tools = (name: string) => name === 'bos_execute';
const headers = (init: Record<string, string> = {}) => new Headers(init);

describe('call attributes', () => {
  it('names a served method, its registered tool and the dated protocol version', () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'bos_execute' } };
    assert.deepEqual(callAttributes(headers({ 'MCP-Protocol-Version': '2026-07-28' }), message, tools), {
      method: 'tools/call',
      toolName: 'bos_execute',
      protocolVersion: '2026-07-28',
    });
  });

  it('never passes client text through: an unknown method, tool or version becomes other, unknown or absent', () => {
    const secret = 'eyJhbGciOiJFUzI1NiJ9.secret-looking-value';
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: secret } };
    assert.deepEqual(callAttributes(headers({ 'MCP-Protocol-Version': secret }), message, tools), {
      method: 'tools/call',
      toolName: 'unknown',
    });
    assert.deepEqual(callAttributes(headers(), { jsonrpc: '2.0', id: 2, method: secret }, tools), {
      method: 'other',
    });
  });

  it('takes the version from initialize when no header carries one, and names replies, batches and GET', () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } };
    assert.deepEqual(callAttributes(headers(), init, tools), {
      method: 'initialize',
      protocolVersion: '2025-11-25',
    });
    assert.deepEqual(callAttributes(headers(), { jsonrpc: '2.0', id: 3, result: {} }, tools), {
      method: 'response',
    });
    assert.deepEqual(callAttributes(headers(), 'batch', tools), { method: 'batch' });
    assert.deepEqual(callAttributes(headers(), undefined, tools, 'GET'), { method: 'GET' });
  });
});
