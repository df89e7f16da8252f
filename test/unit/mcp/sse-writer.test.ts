/**
 * SSE frame encoding: the one-pass encoders give exactly the UTF-8 bytes of the frame strings, for any text
 * (lone surrogates, astral characters, CR/LF inside data), any id/event, and on both sides of the size above
 * which frames are measured before they are encoded.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import {
  encodeEventFrame,
  encodeFrame,
  encodeJsonEventFrame,
  eventFrame,
} from '../../../lambda/mcp/sse/index.js';

const reference = (text: string) => new TextEncoder().encode(text);

/** Text that mixes ASCII, Latin-1, other BMP characters, astral characters, lone surrogates and line breaks. */
const text = fc.array(
  fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('é', 'Ł', 'ø', '😀', '\ud800', '\udfff', '\n', '\r', '\r\n', '"', '\u2028'),
  ),
  { maxLength: 12 },
);

describe('SSE frame encoding', () => {
  it('frames id, event and data exactly as the AppTheory sse-single-event vector', () => {
    assert.equal(eventFrame('{"ok":true}', '1', 'message'), 'id: 1\nevent: message\ndata: {"ok":true}\n\n');
  });

  it('splits multi-line data into one data field per line', () => {
    assert.equal(eventFrame('a\nb\r\nc\rd'), 'data: a\ndata: b\ndata: c\ndata: d\n\n');
  });

  it('encodes any frame string to the same bytes as TextEncoder, in a buffer of exactly that size', () => {
    fc.assert(
      fc.property(text, (parts) => {
        const frame = parts.join('');
        const bytes = encodeFrame(frame);
        assert.deepEqual(bytes, reference(frame));
        assert.equal(bytes.buffer.byteLength, bytes.byteLength);
      }),
    );
  });

  it('has room for text of only 3-byte characters (the worst case per UTF-16 unit)', () => {
    for (const data of ['€'.repeat(5000), '\ud800'.repeat(5000), `€${'😀'.repeat(2000)}`]) {
      assert.deepEqual(encodeFrame(data), reference(data));
      assert.deepEqual(encodeEventFrame(data, '1', 'message'), reference(eventFrame(data, '1', 'message')));
    }
  });

  it('encodes an event frame to the bytes of its frame string, with or without id and event', () => {
    fc.assert(
      fc.property(
        text,
        fc.option(fc.stringMatching(/^[0-9a-z_-]{1,12}$/), { nil: undefined }),
        fc.option(fc.constantFrom('message', 'ping'), { nil: undefined }),
        (parts, id, event) => {
          const data = parts.join('');
          assert.deepEqual(encodeEventFrame(data, id, event), reference(eventFrame(data, id, event)));
        },
      ),
    );
  });

  it('encodes JSON.stringify output without scanning it to the same bytes as the scanning encoder', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        text,
        fc.option(fc.stringMatching(/^[0-9a-z_-]{1,12}$/), { nil: undefined }),
        (value, parts, id) => {
          // Strings with CR/LF inside the value: JSON escapes them, so the data stays one line.
          const json = JSON.stringify({ value, text: parts.join('') });
          assert.deepEqual(
            encodeJsonEventFrame(json, id, 'message'),
            reference(eventFrame(json, id, 'message')),
          );
        },
      ),
    );
  });

  it('encodes large frames (measured before encoding) to the same bytes', () => {
    // Above 2^20 UTF-16 units the encoder sizes the buffer exactly first; this crosses that bound.
    const data = JSON.stringify({ name: 'Zoë Łukasz 😀', pad: 'x'.repeat(1 << 20) });
    const bytes = encodeEventFrame(data, '7', 'message');
    assert.deepEqual(bytes, reference(eventFrame(data, '7', 'message')));
    assert.equal(bytes.buffer.byteLength, bytes.byteLength);
    assert.deepEqual(encodeFrame(`: ${data}\n\n`), reference(`: ${data}\n\n`));
  });

  it('keeps the bytes of every frame handed out while later frames are encoded', () => {
    // Event frames share slabs: encode enough frames (small, large, one above the slab size) to fill several,
    // keeping each, then check every one of them afterwards.
    const kept: [Uint8Array, string][] = [];
    for (let i = 0; i < 300; i++) {
      const size = i % 50 === 7 ? 400_000 : (i * 7919) % 30_000;
      const json = JSON.stringify({ i, text: `${i % 3 === 0 ? 'é😀' : 'a'}${'x'.repeat(size)}` });
      const bytes = i % 2 === 0 ? encodeJsonEventFrame(json, undefined, 'message') : encodeEventFrame(json);
      kept.push([bytes, i % 2 === 0 ? eventFrame(json, undefined, 'message') : eventFrame(json)]);
    }
    for (const [bytes, frame] of kept) assert.deepEqual(bytes, reference(frame));
  });

  it('still refuses an id or event that would end its line early', () => {
    assert.throws(() => encodeEventFrame('{}', '1\nevent: forged'), /must not contain CR or LF/);
    assert.throws(() => encodeEventFrame('{}', undefined, 'message\r'), /must not contain CR or LF/);
  });
});
