import { ArnFormat, CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Validations } from 'aws-cdk-lib';
import type { RemovalPolicy, StackProps } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { DataTables } from './constructs/data-tables.js';
import type { DataTableSpecs } from './constructs/data-tables.js';
import { PlatformAlarms } from './constructs/platform-alarms.js';
import { PlatformApi } from './constructs/platform-api.js';
import type { CustomDomainProps, ThrottlingProps } from './constructs/platform-api.js';
import { PlatformDashboard } from './constructs/platform-dashboard.js';
import { PlatformFunction } from './constructs/platform-function.js';
import { METRICS_NAMESPACE, METRICS_SERVICE } from './constructs/platform-metrics.js';
import { RequestStateSecret } from './constructs/request-state-secret.js';
import { SourceCache } from './constructs/source-cache.js';
import { platformEnvironment } from './environment.js';
import { PLATFORM_HANDLER_ENTRY, PROJECT_ROOT } from './project.js';
import type { AuthProps, ListenerBudgetProps, TtlMinutes } from './environment.js';
import type { RateLimitProps } from './rate-limits.js';
import { baselineTable, tableSchemasById } from './table-schemas.js';
import { DEFAULT_MEMORY_SIZE_MB, SOURCE_SECRET_PREFIX } from './environment.js';
import { assertStageName, logRetentionForStage, removalPolicyForStage } from './stage-policy.js';

/** Props of {@link BosMcpStack}. */
export interface BosMcpStackProps extends StackProps {
  /** Project stage (`dev`, `staging`, `prod` …): names the API stage and decides data retention. */
  readonly stage: string;
  /** Bearer-token validation settings (`AUTH_*`). */
  readonly auth: AuthProps;
  /**
   * Absolute path of the function's handler source.
   * @default `<repository>/lambda/handlers/platform.ts`
   */
  readonly handlerEntry?: string;
  /**
   * Absolute path of the repository root (esbuild's working directory, `package-lock.json`'s folder).
   * @default the folder above `lib/`
   */
  readonly projectRoot?: string;
  /**
   * Key schemas and TTL attributes of the four tables.
   * @default `tableSchemasById` from `lib/table-schemas.ts` (the schemas the local stack uses)
   */
  readonly tableSpecs?: DataTableSpecs;
  /**
   * Serve the endpoint on a custom domain (ACM certificate in the stack's region), no base path.
   * @default - the execute-api URL
   */
  readonly customDomain?: CustomDomainProps;
  /**
   * Origins allowed by CORS and by the function's Origin check (`MCP_ALLOWED_ORIGINS`).
   * @default ['https://claude.ai', 'https://claude.com']
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * Function memory in MB.
   * @default 1024
   */
  readonly memorySize?: number;
  /**
   * Function timeout, at most 15 minutes (the REST streaming maximum).
   * @default Duration.minutes(15)
   */
  readonly timeout?: Duration;
  /**
   * Retention of the function and access logs.
   * @default RetentionDays.ONE_WEEK in `dev`, RetentionDays.THREE_MONTHS elsewhere
   */
  readonly logRetention?: RetentionDays;
  /**
   * Removal policy of the tables and log groups.
   * @default DESTROY in `dev`, RETAIN elsewhere
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Stage throttling.
   * @default { rateLimit: 50, burstLimit: 100 }
   */
  readonly throttling?: ThrottlingProps;
  /**
   * Store TTLs in minutes.
   * @default { session: 60, stream: 60, task: 10 }
   */
  readonly ttlMinutes?: Partial<TtlMinutes>;
  /**
   * Requests per window per principal and per tenant (`MCP_RATE_LIMIT_*`, docs/deploy.md "Rate limits").
   * @default DEFAULT_RATE_LIMITS
   */
  readonly rateLimits?: RateLimitProps;
  /**
   * Time kept back from the Lambda deadline for the final frame (`BOS_DEADLINE_RESERVE_MS`).
   * @default 1000
   */
  readonly deadlineReserveMs?: number;
  /**
   * The `contractUri` advertised for `bos/source-results/v1` (`BOS_CONTRACT_URI`), an https URL.
   * @default - the function's default, https://dfsm.ai/apps/bos/source-results-v1.html
   */
  readonly contractUri?: string;
  /**
   * Keep `GET /mcp` without `Last-Event-ID` open for a bounded window (`MCP_LISTENER_BUDGET_MS`).
   * @default - one keepalive, then end
   */
  readonly listenerBudget?: ListenerBudgetProps;
  /**
   * X-Ray tracing on the function and the API stage.
   * @default false
   */
  readonly tracing?: boolean;
  /**
   * SNS topic ARN for alarm notifications.
   * @default - no notifications
   */
  readonly alarmTopicArn?: string;
  /**
   * Share of one source's reads, in percent, that failed in a 5-minute period; 2 such periods of 3 raise
   * the per-source alarm.
   * @default 25
   */
  readonly sourceErrorRatePercent?: number;
  /**
   * WAFv2 web ACL ARN (REGIONAL scope) for the API stage.
   * @default - no web ACL
   */
  readonly webAclArn?: string;
  /**
   * Create the account-level API Gateway logging role (`AWS::ApiGateway::Account`).
   * @default true
   */
  readonly apiGatewayCloudWatchRole?: boolean;
  /**
   * Provision the source cache (docs/cache.md): the baseline table, its sync schedule, the staleness alarm.
   * Sources still opt in one by one in the directory.
   * @default - no source cache (every read is live)
   */
  readonly sourceCache?: SourceCacheStackProps;
}

/** The source cache's settings in {@link BosMcpStackProps}. */
export interface SourceCacheStackProps {
  /**
   * Interval of the sync schedule: the smallest `refresh` of the directory's cached sources.
   * @default Duration.minutes(5)
   */
  readonly syncInterval?: Duration;
  /**
   * Customer managed KMS key for the baseline table.
   * @default - an AWS owned key
   */
  readonly kmsKeyArn?: string;
}

/** Default browser origins of Claude-style hosts (DESIGN §6). */
export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = ['https://claude.ai', 'https://claude.com'];

/** Namespace and service of the function's own metrics, as the dashboard and alarms read them. */
const PLATFORM_METRIC_SCOPE = { namespace: METRICS_NAMESPACE, service: METRICS_SERVICE } as const;

/** Default stage throttling: room for interactive clients, a ceiling on a runaway one. */
export const DEFAULT_THROTTLING: ThrottlingProps = { rateLimit: 50, burstLimit: 100 };

/**
 * The deployable BOS platform: API Gateway REST v1 streaming into one Lambda, with DynamoDB tables, alarms
 * and outputs. Composition only; each part is its own construct.
 */
export class BosMcpStack extends Stack {
  readonly tables: DataTables;
  readonly platform: PlatformFunction;
  readonly api: PlatformApi;
  readonly alarms: PlatformAlarms;
  readonly requestStateSecret: RequestStateSecret;
  readonly dashboard: PlatformDashboard;
  readonly sourceCache?: SourceCache;

  constructor(scope: Construct, id: string, props: BosMcpStackProps) {
    super(scope, id, props);
    assertStageName(props.stage);
    const removalPolicy = props.removalPolicy ?? removalPolicyForStage(props.stage);
    const logRetention = props.logRetention ?? logRetentionForStage(props.stage);
    const timeout = props.timeout ?? Duration.minutes(15);
    const allowedOrigins = props.allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS;

    this.tables = new DataTables(this, 'Tables', {
      specs: props.tableSpecs ?? tableSchemasById,
      removalPolicy,
    });
    this.platform = new PlatformFunction(this, 'Platform', {
      entry: props.handlerEntry ?? PLATFORM_HANDLER_ENTRY,
      projectRoot: props.projectRoot ?? PROJECT_ROOT,
      memorySize: props.memorySize ?? DEFAULT_MEMORY_SIZE_MB,
      timeout,
      environment: {},
      logRetention,
      logRemovalPolicy: removalPolicy,
      tracing: props.tracing ?? false,
    });
    const handler = this.platform.function;
    this.api = new PlatformApi(this, 'Http', {
      stageName: props.stage,
      handler,
      allowedOrigins,
      throttling: props.throttling ?? DEFAULT_THROTTLING,
      logRetention,
      logRemovalPolicy: removalPolicy,
      customDomain: props.customDomain,
      cloudWatchRole: props.apiGatewayCloudWatchRole ?? true,
      webAclArn: props.webAclArn,
      tracing: props.tracing ?? false,
    });

    // MCP_ENDPOINT is built from the API id and the literal stage name, never from the Stage resource:
    // the Stage depends on the methods, the methods on the function, so referencing it would be a cycle.
    const environment = platformEnvironment({
      endpointUrl: this.api.endpointUrl,
      tables: this.tables,
      // The console runs on the API's own origin and calls the endpoint from there (docs/console.md).
      allowedOrigins: [...allowedOrigins, this.api.origin],
      auth: props.auth,
      ttlMinutes: props.ttlMinutes,
      deadlineReserveMs: props.deadlineReserveMs,
      ...(props.rateLimits === undefined ? {} : { rateLimits: props.rateLimits }),
      contractUri: props.contractUri,
      listenerBudget: props.listenerBudget,
    });
    for (const [name, value] of Object.entries(environment)) handler.addEnvironment(name, value);

    // Least privilege per table: the function owns session, stream and task data; it only reads the directory.
    this.tables.sessions.grantReadWriteData(handler);
    this.tables.streams.grantReadWriteData(handler);
    this.tables.tasks.grantReadWriteData(handler);
    this.tables.directory.grantReadData(handler);
    // The rate limiter only ever counts: one conditional UpdateItem, nothing read, nothing deleted.
    this.tables.rateLimits.grant(handler, 'dynamodb:UpdateItem');
    this.grantSourceSecrets();
    // Shared by every execution environment, so it is provisioned here rather than drawn per environment.
    this.requestStateSecret = new RequestStateSecret(this, 'RequestState', { handler, removalPolicy });

    this.alarms = new PlatformAlarms(this, 'Alarms', {
      api: this.api.api,
      handler,
      timeout,
      alarmTopicArn: props.alarmTopicArn,
      metrics: PLATFORM_METRIC_SCOPE,
      ...(props.sourceErrorRatePercent !== undefined && {
        sourceErrorRatePercent: props.sourceErrorRatePercent,
      }),
    });
    this.dashboard = new PlatformDashboard(this, 'Dashboard', {
      dashboardName: this.stackName,
      api: this.api.api,
      handler,
      metrics: PLATFORM_METRIC_SCOPE,
      alarms: [
        this.alarms.api5xx,
        this.alarms.functionErrors,
        this.alarms.functionThrottles,
        this.alarms.durationNearTimeout,
        this.alarms.sourceErrors,
      ],
    });

    if (props.sourceCache !== undefined) {
      this.sourceCache = new SourceCache(this, 'SourceCache', {
        handler,
        schema: baselineTable,
        removalPolicy,
        ...(props.sourceCache.kmsKeyArn === undefined ? {} : { kmsKeyArn: props.sourceCache.kmsKeyArn }),
        ...(props.sourceCache.syncInterval === undefined
          ? {}
          : { syncInterval: props.sourceCache.syncInterval }),
        metrics: PLATFORM_METRIC_SCOPE,
        ...(props.alarmTopicArn === undefined ? {} : { alarmTopicArn: props.alarmTopicArn }),
      });
      this.dashboard.dashboard.addWidgets(...this.sourceCache.widgets);
    }

    new CfnOutput(this, 'EndpointUrl', {
      description: 'MCP endpoint URL (what clients connect to)',
      value: this.api.endpointUrl,
    });
    new CfnOutput(this, 'ProtectedResourceMetadataUrl', {
      description: 'RFC 9728 protected-resource metadata URL of the endpoint',
      value: this.api.metadataUrl,
    });
    new CfnOutput(this, 'ConsoleUrl', {
      description: 'Operator console (a browser MCP client served beside the endpoint)',
      value: this.api.consoleUrl,
    });
    if (this.api.domain) {
      new CfnOutput(this, 'CustomDomainTarget', {
        description: 'Point the custom domain (CNAME or alias) at this Regional domain name',
        value: this.api.domain.domainNameAliasDomainName,
      });
    }
  }

  /**
   * Source credentials: read-only, and only the secrets the function's resolver reads
   * (`SecretsManagerCredentialResolver`: `<SOURCE_SECRET_PREFIX><NAME>`). Secrets Manager appends a random
   * six-character suffix to every secret ARN, so the names must end in a wildcard.
   */
  private grantSourceSecrets(): void {
    const arn = Stack.of(this).formatArn({
      service: 'secretsmanager',
      resource: 'secret',
      resourceName: `${SOURCE_SECRET_PREFIX}*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    this.platform.function.addToRolePolicy(
      new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [arn] }),
    );
    Validations.of(this.platform.role).acknowledge({
      // cdk-nag names the resource with CloudFormation pseudo parameters in angle brackets.
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:${SOURCE_SECRET_PREFIX}*]`,
      reason:
        `Source credentials are named at run time by the directory (credential_ref), so the grant covers the ` +
        `${SOURCE_SECRET_PREFIX} prefix, and Secrets Manager ARNs end in a random suffix; GetSecretValue only.`,
    });
  }
}
