/**
 * A DynamoDB client tuned to fail fast. The SDK defaults (no connection timeout, 3 attempts with backoff)
 * can hold a request for a long time against a dead endpoint; a session lookup that cannot answer must
 * become an HTTP 503 in well under 5 s instead.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { SdkWarningLogger } from '../telemetry/sdk-logger.js';

/** Options for {@link createDynamoDbClient}. */
export interface DynamoDbClientOptions {
  /** Endpoint override (DynamoDB Local). @default the regional endpoint */
  endpoint?: string;
  /** @default `AWS_REGION` via the SDK; `us-east-1` when `endpoint` is set and no region is known */
  region?: string;
  /** Total tries per call, first one included; throttling is retried within this. @default 2 */
  maxAttempts?: number;
  /** TCP connect timeout per try. @default 1000 */
  connectionTimeoutMs?: number;
  /** Time to the response per try once connected. @default 2000 */
  requestTimeoutMs?: number;
  /**
   * Explicit credentials. With an `endpoint` and none given, fixed local ones are used: DynamoDB Local
   * ignores them, and the default chain would otherwise probe the EC2 metadata service.
   */
  credentials?: DynamoDBClientConfig['credentials'];
}

/** Builds the client; no network I/O happens until the first command. */
export function createDynamoDbClient(options: DynamoDbClientOptions = {}): DynamoDBClient {
  const local = options.endpoint !== undefined;
  const region = options.region ?? (local ? 'us-east-1' : undefined);
  const credentials =
    options.credentials ?? (local ? { accessKeyId: 'local', secretAccessKey: 'local' } : undefined);
  return new DynamoDBClient({
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(region === undefined ? {} : { region }),
    ...(credentials === undefined ? {} : { credentials }),
    maxAttempts: options.maxAttempts ?? 2,
    // The SDK's warnings as JSON lines; its default logger is not recognised in our minified bundle.
    logger: new SdkWarningLogger(),
    // The SDK builds its NodeHttpHandler from these options (no direct @smithy import needed).
    requestHandler: {
      connectionTimeout: options.connectionTimeoutMs ?? 1000,
      requestTimeout: options.requestTimeoutMs ?? 2000,
      // Without this the handler only logs a warning when requestTimeout passes and keeps waiting.
      throwOnRequestTimeout: true,
    },
  });
}
