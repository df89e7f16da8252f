import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { StackConfigError } from './errors.js';

/** The stage whose data is disposable: everything else keeps its tables and logs when the stack goes. */
export const DEV_STAGE = 'dev';

/** API Gateway stage names allow letters, digits, hyphens and underscores (AWS::ApiGateway::Stage StageName). */
const STAGE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether a stage's data may be destroyed with the stack. */
export function isDisposableStage(stage: string): boolean {
  return stage === DEV_STAGE;
}

/**
 * The removal policy of data (tables, log groups) for a stage: `DESTROY` in `dev` so a developer stack
 * cleans up, `RETAIN` everywhere else so a `cdk destroy` or a replaced resource never deletes sessions,
 * directory data or audit logs.
 */
export function removalPolicyForStage(stage: string): RemovalPolicy {
  return isDisposableStage(stage) ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
}

/** Default log retention: short for `dev`, three months elsewhere (long enough to investigate an incident). */
export function logRetentionForStage(stage: string): RetentionDays {
  return isDisposableStage(stage) ? RetentionDays.ONE_WEEK : RetentionDays.THREE_MONTHS;
}

/** Throws unless `stage` is usable as an API Gateway stage name and in resource names. */
export function assertStageName(stage: string): void {
  if (!STAGE_NAME.test(stage)) {
    throw new StackConfigError(
      'invalid_stage',
      `stage "${stage}" must be 1-64 letters, digits, "-" or "_" (it names the API Gateway stage)`,
    );
  }
}
