import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sseInternalErrorFrame } from '../../../../lambda/aws/index.js';

describe('in-stream error frame', () => {
  it('is one message event carrying a JSON-RPC internal error with a null id', () => {
    assert.equal(
      sseInternalErrorFrame(),
      'event: message\ndata: {"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}\n\n',
    );
  });
});
