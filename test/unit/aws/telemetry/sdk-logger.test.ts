/**
 * The AWS SDK clients' logger (`sdk-logger.ts`): still the SDK's own no-op logger as far as its logger
 * middleware can tell (so no per-call input/output is copied or logged), while warnings reach our JSON log.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient, SdkWarningLogger } from '../../../../lambda/aws/index.js';
import type { Logger } from '../../../../lambda/mcp/index.js';

/** A logger that keeps every call. */
function recordingLogger(): { logger: Logger; lines: Array<[string, string, unknown]> } {
  const lines: Array<[string, string, unknown]> = [];
  const record = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push([level, message, fields]);
  };
  return {
    lines,
    logger: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') },
  };
}

describe('SdkWarningLogger', () => {
  it("is an instance of the SDK's own default logger class, which its logger middleware skips", () => {
    // Prepare: the class the SDK itself uses when a client is given no logger.
    const sdkDefault = new DynamoDBClient({ region: 'us-east-1' });
    const ours = createDynamoDbClient({ endpoint: 'http://127.0.0.1:1' });
    try {
      // Act + Assess
      const defaultClass = (sdkDefault.config.logger as object).constructor as new () => object;
      assert.ok(ours.config.logger instanceof defaultClass);
      assert.ok(ours.config.logger instanceof SdkWarningLogger);
    } finally {
      sdkDefault.destroy();
      ours.destroy();
    }
  });

  it('writes the text of an SDK warning as one line of our logger', () => {
    // Prepare
    const { logger, lines } = recordingLogger();
    const sdkLogger = new SdkWarningLogger(logger);
    // Act
    sdkLogger.warn('socket usage at capacity=50', new Error('queued'), { input: { secret: 'x' } });
    // Assess: strings and errors kept, objects (which may carry call input) dropped.
    assert.deepEqual(lines, [
      ['warn', 'aws sdk warning', { detail: 'socket usage at capacity=50 Error: queued' }],
    ]);
  });

  it('ignores every other level, where the SDK logs call inputs and outputs', () => {
    // Prepare
    const { logger, lines } = recordingLogger();
    // Typed as the SDK sees a logger (`@smithy/types` Logger): every level takes the logged values.
    const sdkLogger: Record<'trace' | 'debug' | 'info' | 'error', (...content: unknown[]) => void> =
      new SdkWarningLogger(logger);
    const call = { clientName: 'DynamoDBClient', commandName: 'PutItemCommand', input: { Item: {} } };
    // Act
    sdkLogger.trace(call);
    sdkLogger.debug(call);
    sdkLogger.info(call);
    sdkLogger.error(call);
    // Assess
    assert.deepEqual(lines, []);
  });
});
