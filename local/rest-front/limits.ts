/**
 * The size limits in front of the function and API Gateway's answers to them, byte for byte as clients
 * observe them behind a deployed REST API (docs/aws.md "AWS facts and the local front": the sources and what is documented vs
 * observed).
 */
import type { ServerResponse } from 'node:http';

/** API Gateway REST: largest request payload, 10 MB; the 413 text names the limit in bytes. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

/** Lambda: largest synchronous invocation request payload (the proxy event as JSON), 6 MB = 6 MiB. */
export const MAX_EVENT_BYTES = 6 * 1024 * 1024;

/** Lambda response streaming: largest streamed response, 200 MB (Lambda's MB are MiB). */
export const MAX_STREAMED_RESPONSE_BYTES = 200 * 1024 * 1024;

/** Lambda response streaming: the first 6 MB are uncapped, then at most 2 MBps (API Gateway's cap is higher). */
export const STREAM_BURST_BYTES = 6 * 1024 * 1024;
export const STREAM_BYTES_PER_SECOND = 2 * 1024 * 1024;

/**
 * A body over API Gateway's payload limit: 413 with a plain-text body, not the usual JSON gateway response
 * (and not customisable: REQUEST_TOO_LARGE gateway responses are not applied to it).
 */
export function sendRequestTooLarge(res: ServerResponse, maxBytes: number): void {
  const body = `HTTP content length exceeded ${maxBytes} bytes.`;
  res.writeHead(413, {
    // Sic: the media type API Gateway sends here.
    'Content-Type': 'text; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * A proxy event over Lambda's invocation payload limit: Lambda refuses the invoke
 * (`RequestEntityTooLargeException`) and API Gateway answers 413 with this JSON body (note the space).
 */
export function sendEventTooLarge(res: ServerResponse): void {
  const body = '{"message": "Request Too Long"}';
  res.writeHead(413, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'x-amzn-ErrorType': 'BadRequestException',
  });
  res.end(body);
}

/** Bytes of the invocation payload Lambda would receive for `event`. */
export function eventPayloadBytes(event: unknown): number {
  return Buffer.byteLength(JSON.stringify(event));
}
