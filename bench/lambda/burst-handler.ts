/**
 * Lambda side of the streaming benchmark: a streaming handler writing `?count=` SSE frames through the real
 * runtime client's response stream.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Writable } from 'node:stream';
import { writeBurst } from './events.js';

export const handler = awslambda.streamifyResponse(
  async (event: APIGatewayProxyEvent, stream: Writable): Promise<void> => {
    const count = Number(event.queryStringParameters?.['count'] ?? '1000');
    const out = awslambda.HttpResponseStream.from(stream, {
      statusCode: 200,
      headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' },
    });
    await writeBurst(out, count);
  },
);
