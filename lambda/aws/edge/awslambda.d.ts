/**
 * The `awslambda` global that the Lambda Node.js runtime (and `aws-lambda-ric`) installs before the handler
 * module loads: `streamifyResponse(handler)` and `HttpResponseStream.from(stream, metadata)`.
 *
 * `@types/aws-lambda` (handler.d.ts) already declares the global namespace; a second `declare var awslambda`
 * collides with it (TS2300, hidden only by `skipLibCheck`). So this file is the one place the project pulls
 * that declaration in, and it adds the exact prelude shape the runtime serialises. Production code never
 * fakes the global; tests install a fake from `test/helpers`.
 */
/// <reference types="aws-lambda" />

declare global {
  namespace awslambda {
    /**
     * The JSON prelude API Gateway REST v1 (STREAM) and Function URLs read before the 8 NUL delimiter
     * (aws-lambda-nodejs-runtime-interface-client `src/stream/http-response-stream.ts`).
     */
    // A type alias, not an interface: `HttpResponseStream.from` takes `Record<string, unknown>`.
    type HttpResponseMetadata = {
      statusCode: number;
      headers?: Record<string, string>;
      multiValueHeaders?: Record<string, string[]>;
      cookies?: string[];
    };
  }
}

export {};
