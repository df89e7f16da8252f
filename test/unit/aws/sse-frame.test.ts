import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeSseFrame, sseInternalErrorFrame } from '../../../lambda/aws/index.js';

describe('SSE frame encoder', () => {
  it('frames id, event and data exactly as the AppTheory sse-single-event vector', () => {
    assert.equal(
      encodeSseFrame({ id: '1', event: 'message', data: '{"ok":true}' }),
      'id: 1\nevent: message\ndata: {"ok":true}\n\n',
    );
  });

  it('splits multi-line data into one data field per line', () => {
    assert.equal(encodeSseFrame({ data: 'a\nb\r\nc' }), 'data: a\ndata: b\ndata: c\n\n');
  });

  it('rejects CR or LF in id and event, which would inject fields', () => {
    assert.throws(() => encodeSseFrame({ id: '1\ndata: x', data: '' }), TypeError);
    assert.throws(() => encodeSseFrame({ event: 'message\r', data: '' }), TypeError);
  });

  it('builds the in-stream error frame as a JSON-RPC internal error with a null id', () => {
    const frame = sseInternalErrorFrame();
    const data = JSON.parse(frame.split('\n')[1]?.slice('data: '.length) ?? '') as unknown;
    assert.deepEqual(data, { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } });
    assert.ok(frame.startsWith('event: message\n') && frame.endsWith('\n\n'));
  });
});
