/**
 * Installs a fake `awslambda` global for unit tests (the real one comes from the Lambda runtime / RIC).
 * `HttpResponseStream.from` behaves like aws-lambda-ric 4.0.2: it sets the integration content type and
 * writes `JSON.stringify(metadata)` + 8 NUL bytes just before the first write.
 */
import type { Writable } from 'node:stream';
import { PRELUDE_CONTENT_TYPE } from './fake-response-stream.js';
import type { FakeResponseStream } from './fake-response-stream.js';

const fake = {
  streamifyResponse: <T>(handler: T): T => handler,
  HttpResponseStream: {
    from(stream: Writable, metadata: Record<string, unknown>): Writable {
      const target = stream as FakeResponseStream;
      target.setContentType(PRELUDE_CONTENT_TYPE);
      const prelude = JSON.stringify(metadata);
      target._onBeforeFirstWrite = (write) => {
        write(prelude);
        write(new Uint8Array(8));
      };
      return target;
    },
  },
};

/** Sets `globalThis.awslambda` to the fake (idempotent). Returns a function that restores the previous value. */
export function installFakeAwsLambda(): () => void {
  const holder = globalThis as { awslambda?: unknown };
  const previous = holder.awslambda;
  holder.awslambda = fake;
  return () => {
    holder.awslambda = previous;
  };
}
