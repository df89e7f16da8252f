import { Validations } from 'aws-cdk-lib';
import type { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Policy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { LAMBDA_BASE_ENVIRONMENT, LAMBDA_HANDLER, LAMBDA_RUNTIME_NAME } from '../bundling.js';
import { bundledLambdaCode } from '../lambda-code.js';
import { StackConfigError } from '../errors.js';

/** Lambda's hard maximum timeout (configuration-timeout: 900 s), also the REST streaming maximum (15 min). */
export const MAX_FUNCTION_TIMEOUT_SECONDS = 900;

/** Props of {@link PlatformFunction}. */
export interface PlatformFunctionProps {
  /** Absolute path of the handler source (`lambda/handlers/platform.ts`). */
  readonly entry: string;
  /** Absolute path of the repository root: esbuild's working directory. */
  readonly projectRoot: string;
  /** Memory in MB; CPU scales with it. */
  readonly memorySize: number;
  /** Invocation timeout; at most 900 s. The streamed response must finish before it. */
  readonly timeout: Duration;
  /** Environment variables (DESIGN §6); `NODE_OPTIONS` from `lib/bundling.ts` is added. */
  readonly environment: Readonly<Record<string, string>>;
  /** Retention of the function's log group. */
  readonly logRetention: RetentionDays;
  /** What happens to the log group when it leaves the stack. */
  readonly logRemovalPolicy: RemovalPolicy;
  /**
   * Send traces to AWS X-Ray.
   * @default false
   */
  readonly tracing?: boolean;
}

function lambdaRuntime(): Runtime {
  const runtime = Runtime.ALL.find((candidate) => candidate.name === LAMBDA_RUNTIME_NAME);
  if (!runtime) {
    throw new StackConfigError(
      'invalid_function_settings',
      `aws-cdk-lib does not know runtime ${LAMBDA_RUNTIME_NAME}`,
    );
  }
  return runtime;
}

/**
 * The platform Lambda: code bundled on this machine with the esbuild options the local stack uses
 * (`lib/lambda-code.ts`, `lib/bundling.ts`), Node.js 22 on arm64, its own log group, and a role that can
 * write to that log group only. Table permissions are granted by the stack, per table.
 */
export class PlatformFunction extends Construct {
  readonly function: LambdaFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: PlatformFunctionProps) {
    super(scope, id);
    const timeoutSeconds = props.timeout.toSeconds();
    if (timeoutSeconds < 1 || timeoutSeconds > MAX_FUNCTION_TIMEOUT_SECONDS) {
      throw new StackConfigError(
        'invalid_function_settings',
        `function timeout must be 1-${MAX_FUNCTION_TIMEOUT_SECONDS} s, got ${timeoutSeconds} s`,
      );
    }
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });
    // Our own role instead of the default one: the default attaches AWSLambdaBasicExecutionRole, which may
    // write to every log group in the account; this one may write to the function's log group only.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'bos-mcp platform function: its own log group plus per-table DynamoDB grants',
    });
    this.logGroup.grantWrite(this.role);

    this.function = new LambdaFunction(this, 'Handler', {
      // The operator console ships in the same asset: the function serves it beside the endpoint.
      code: bundledLambdaCode({ entry: props.entry, projectRoot: props.projectRoot, withConsole: true }),
      handler: LAMBDA_HANDLER,
      runtime: lambdaRuntime(),
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      tracing: props.tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      environment: { ...LAMBDA_BASE_ENVIRONMENT, ...props.environment },
    });

    this.grantSelfInvoke();

    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node.js 22 is pinned on purpose: lib/bundling.ts builds the bundle for the node22 target that the ' +
        'design fixes, so moving to Node.js 24 is a deliberate, tested upgrade rather than drift.',
    });
    if (props.tracing) {
      Validations.of(this.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Only with tracing on: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level ' +
          'permissions (X-Ray IAM reference), so CDK grants them on "*"; every other statement names its ARN.',
      });
    }
  }

  /**
   * Task rounds run in their own invocation: an asynchronous invoke of this same function (docs/tasks.md
   * "Execution"). The role may invoke this function only, unqualified, and nothing else. The statement is a
   * policy of its own beside the role: the function depends on the role (and its default policy), so naming
   * the function's ARN in the default policy would be a dependency cycle. Lambda's own retries of a failed
   * asynchronous invocation are off: a worker that dies is reported through the task (it reads `failed`
   * after its deadline) rather than run a second time behind the client's back.
   */
  private grantSelfInvoke(): void {
    new Policy(this, 'SelfInvoke', {
      roles: [this.role],
      statements: [
        new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.function.functionArn] }),
      ],
    });
    this.function.configureAsyncInvoke({ retryAttempts: 0 });
  }
}
