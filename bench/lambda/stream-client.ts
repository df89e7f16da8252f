/**
 * Client process of the streaming benchmark, so neither side shares its CPU with the reader: reads one URL
 * per stdin line, streams the response to the end, and prints `{"ms":…,"bytes":…,"status":…}` per request.
 */
import { request } from 'node:http';
import { createInterface } from 'node:readline';

function fetchAll(url: string): Promise<{ ms: number; bytes: number; status: number }> {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const req = request(url, { agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.byteLength;
      });
      res.on('end', () => resolve({ ms: performance.now() - startedAt, bytes, status: res.statusCode ?? 0 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

for await (const line of createInterface({ input: process.stdin })) {
  const result = await fetchAll(line.trim());
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
