import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';

/**
 * The access-log line, one JSON object per request. Every value is a quoted `$context` variable except
 * `errorMessage`, whose `messageString` form API Gateway already quotes and escapes, so the line stays valid
 * JSON whatever the message holds. No header values are logged: `Authorization` never reaches a log.
 */
const FIELDS: ReadonlyArray<readonly [name: string, variable: string, quoted: boolean]> = [
  ['requestId', '$context.requestId', true],
  ['extendedRequestId', '$context.extendedRequestId', true],
  ['requestTime', '$context.requestTimeEpoch', true],
  ['sourceIp', '$context.identity.sourceIp', true],
  ['httpMethod', '$context.httpMethod', true],
  ['resourcePath', '$context.resourcePath', true],
  ['path', '$context.path', true],
  ['protocol', '$context.protocol', true],
  ['status', '$context.status', true],
  ['responseLength', '$context.responseLength', true],
  ['responseLatencyMs', '$context.responseLatency', true],
  ['integrationStatus', '$context.integration.status', true],
  ['integrationLatencyMs', '$context.integration.latency', true],
  ['integrationError', '$context.integrationErrorMessage', true],
  ['errorType', '$context.error.responseType', true],
  ['errorMessage', '$context.error.messageString', false],
];

/** JSON access-log format of the platform API stage. */
export function platformAccessLogFormat(): AccessLogFormat {
  const members = FIELDS.map(
    ([name, variable, quoted]) => `"${name}":${quoted ? `"${variable}"` : variable}`,
  );
  return AccessLogFormat.custom(`{${members.join(',')}}`);
}
