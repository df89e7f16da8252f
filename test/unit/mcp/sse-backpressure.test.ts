/**
 * `SseStream#ready()` backpressure while a consumer is reading: frames still waiting in the stream's ordered
 * chain count against the consumer's room, so a producer that awaits `ready()` never gets far ahead of the
 * reader (a federated read would otherwise hold every page's JSON in memory until the end).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { silentLogger } from '../../../lambda/mcp/index.js';
import { SseStream } from '../../../lambda/mcp/sse/index.js';

describe('SseStream backpressure', () => {
  it('keeps a producer that awaits ready() within a few frames of an active reader', async () => {
    const sse = new SseStream({ keepaliveMs: 0, logger: silentLogger, onCancel: () => undefined });
    const payload = JSON.stringify({ page: 'x'.repeat(40_000) });
    let sent = 0;
    let read = 0;
    let furthestAhead = 0;
    const reader = sse.body.getReader();
    const reading = (async () => {
      for (;;) {
        const { done } = await reader.read();
        if (done) return;
        read++;
      }
    })();
    for (let i = 0; i < 300; i++) {
      sse.send(payload);
      sent++;
      furthestAhead = Math.max(furthestAhead, sent - read);
      await sse.ready();
    }
    await sse.finish('{}');
    await reading;
    assert.equal(read, 301);
    // Two 40 kB frames fill the 64 kB high-water mark; before the fix the producer ran ~150 frames ahead.
    assert.ok(furthestAhead <= 3, `producer ran ${furthestAhead} frames ahead of the reader`);
  });

  it('still lets a producer run when nothing is pending and the queue has room', async () => {
    const sse = new SseStream({ keepaliveMs: 0, logger: silentLogger, onCancel: () => undefined });
    let resolved = false;
    await sse.ready().then(() => (resolved = true));
    assert.equal(resolved, true);
    await sse.finish('{}');
    assert.equal(await new Response(sse.body).text(), 'event: message\ndata: {}\n\n');
  });
});
