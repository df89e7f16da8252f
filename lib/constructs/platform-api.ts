import { Aws, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AuthorizationType,
  BasePathMapping,
  DomainName,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  ResponseTransferMode,
  RestApi,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigateway';
import type { IResource, Method } from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import {
  CONSOLE_PATH,
  CONSOLE_PATHS,
  MCP_EXPOSED_HEADERS,
  MCP_METHODS,
  MCP_PATH,
  MCP_REQUEST_HEADERS,
  WELL_KNOWN_METADATA_PATH,
  WELL_KNOWN_METADATA_ROOT,
} from '../routes.js';
import { platformAccessLogFormat } from './access-log-format.js';
import { unauthorizedGatewayResponse } from './unauthorized-response.js';

/**
 * REST streaming integrations may run up to 15 minutes (response-transfer-mode-lambda). Above 29 s a
 * Regional REST API needs the account's "Maximum integration timeout" quota raised (docs/deploy.md).
 */
export const STREAM_INTEGRATION_TIMEOUT = Duration.millis(900_000);

/** A custom domain for the API, mapped with no base path. */
export interface CustomDomainProps {
  /** Fully qualified domain name, e.g. `mcp.example.com`. */
  readonly domainName: string;
  /** ARN of an ACM certificate for `domainName`, in the stack's region (Regional endpoints need that). */
  readonly certificateArn: string;
}

/** Stage-wide request throttling. */
export interface ThrottlingProps {
  /** Steady-state requests per second. */
  readonly rateLimit: number;
  /** Burst bucket size in requests. */
  readonly burstLimit: number;
}

/** Props of {@link PlatformApi}. */
export interface PlatformApiProps {
  /** The API Gateway stage name; also the project stage (`dev`, `prod` …). */
  readonly stageName: string;
  /** The function every route invokes through a streaming integration. */
  readonly handler: IFunction;
  /** Origins allowed by the CORS preflight. */
  readonly allowedOrigins: readonly string[];
  /** Stage throttling. */
  readonly throttling: ThrottlingProps;
  /** Retention of the access-log group. */
  readonly logRetention: RetentionDays;
  /** What happens to the access-log group when it leaves the stack. */
  readonly logRemovalPolicy: RemovalPolicy;
  /**
   * Serve the API on a custom domain with no base path.
   * @default - the execute-api URL, with the stage name as the first path segment
   */
  readonly customDomain?: CustomDomainProps;
  /**
   * Create the account-level role API Gateway needs to write logs (`AWS::ApiGateway::Account`).
   * Set false when the account/region already has one.
   * @default true
   */
  readonly cloudWatchRole?: boolean;
  /**
   * ARN of a WAFv2 web ACL (scope REGIONAL) to associate with the stage.
   * @default - no web ACL
   */
  readonly webAclArn?: string;
  /**
   * Enable X-Ray tracing on the stage.
   * @default false
   */
  readonly tracing?: boolean;
}

/**
 * API Gateway REST v1 (Regional) in front of the platform function. Every route, the MCP endpoint and both
 * RFC 9728 metadata routes, is an `AWS_PROXY` integration in `STREAM` mode: one function writes one
 * response format, so a route that buffered would turn its streaming prelude into garbage
 * (reference-runtime-lessons §5.1).
 */
export class PlatformApi extends Construct {
  readonly api: RestApi;
  readonly accessLogs: LogGroup;
  /** Public URL of the MCP endpoint (`MCP_ENDPOINT`). */
  readonly endpointUrl: string;
  /** Routable URL of the path-specific protected-resource metadata. */
  readonly metadataUrl: string;
  /** URL of the operator console's page (docs/console.md). */
  readonly consoleUrl: string;
  /**
   * The API's own origin (scheme and host, no stage): where the console runs, so the MCP endpoint's Origin
   * check must list it (`MCP_ALLOWED_ORIGINS`).
   */
  readonly origin: string;
  /** The custom domain, when one was asked for. */
  readonly domain?: DomainName;

  constructor(scope: Construct, id: string, props: PlatformApiProps) {
    super(scope, id);
    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });
    this.api = new RestApi(this, 'Api', {
      restApiName: `bos-mcp-${props.stageName}`,
      description: 'bos-mcp: BOS platform Remote MCP endpoint (response streaming)',
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      cloudWatchRole: props.cloudWatchRole ?? true,
      // The account-level logging role serves every REST API in the region, not only this stack's.
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: props.stageName,
        throttlingRateLimit: props.throttling.rateLimit,
        throttlingBurstLimit: props.throttling.burstLimit,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: platformAccessLogFormat(),
        // Execution logs at ERROR only: INFO and data tracing would copy request bodies and headers.
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        tracingEnabled: props.tracing ?? false,
      },
    });

    this.origin = props.customDomain
      ? `https://${props.customDomain.domainName}`
      : `https://${this.api.restApiId}.execute-api.${Aws.REGION}.${Stack.of(this).urlSuffix}`;
    const base = props.customDomain ? this.origin : `${this.origin}/${props.stageName}`;
    this.endpointUrl = `${base}${MCP_PATH}`;
    this.metadataUrl = `${base}${WELL_KNOWN_METADATA_PATH}`;
    this.consoleUrl = `${base}${CONSOLE_PATH}`;

    // One integration for every route: per-method invoke permissions (scopePermissionToMethod defaults to
    // true) and no test-invoke-stage grants, so the function's policy names each stage/method/path.
    const integration = new LambdaIntegration(props.handler, {
      proxy: true,
      responseTransferMode: ResponseTransferMode.STREAM,
      timeout: STREAM_INTEGRATION_TIMEOUT,
      allowTestInvoke: false,
    });
    const cors = (resource: IResource, methods: readonly string[]): void => {
      resource.addCorsPreflight({
        allowOrigins: [...props.allowedOrigins],
        allowHeaders: [...MCP_REQUEST_HEADERS],
        allowMethods: [...methods, 'OPTIONS'],
        exposeHeaders: [...MCP_EXPOSED_HEADERS],
        maxAge: Duration.hours(1),
      });
    };
    const route = (path: string, methods: readonly string[]): void => {
      const resource = this.api.root.resourceForPath(path);
      for (const method of methods) {
        acknowledgeFunctionAuthorization(
          resource.addMethod(method, integration, { authorizationType: AuthorizationType.NONE }),
        );
      }
      cors(resource, methods);
    };
    route(MCP_PATH, MCP_METHODS);
    route(WELL_KNOWN_METADATA_PATH, ['GET']);
    route(WELL_KNOWN_METADATA_ROOT, ['GET']);
    // The console's page and files: same-origin GETs, so no CORS preflight; public like any web page (it
    // holds no data: the page signs in and calls the MCP endpoint as any client does).
    for (const path of CONSOLE_PATHS) {
      acknowledgePublicConsole(
        this.api.root
          .resourceForPath(path)
          .addMethod('GET', integration, { authorizationType: AuthorizationType.NONE }),
      );
    }

    unauthorizedGatewayResponse(this.api, this.metadataUrl);

    if (props.customDomain) {
      this.domain = new DomainName(this, 'Domain', {
        domainName: props.customDomain.domainName,
        certificate: Certificate.fromCertificateArn(this, 'Certificate', props.customDomain.certificateArn),
        endpointType: EndpointType.REGIONAL,
        securityPolicy: SecurityPolicy.TLS_1_2,
      });
      // No base path: RFC 9728 metadata lives at the host root (`/.well-known/…`), which a base path or the
      // execute-api stage segment would hide from clients that build the well-known URI themselves.
      new BasePathMapping(this, 'RootMapping', {
        domainName: this.domain,
        restApi: this.api,
        stage: this.api.deploymentStage,
      });
    }
    if (props.webAclArn) {
      new CfnWebACLAssociation(this, 'WebAcl', {
        resourceArn: this.api.deploymentStage.stageArn,
        webAclArn: props.webAclArn,
      });
    } else {
      Validations.of(this.api.deploymentStage).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason:
          'No webAclArn was given: the stage is protected by stage throttling and the function rejects requests ' +
          'without a valid bearer token; WAF rules are account policy, attached by passing webAclArn.',
      });
    }
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'MCP bodies are polymorphic JSON-RPC; API Gateway validation would answer malformed JSON with a non-JSON-RPC ' +
        '400 where MCP requires a JSON-RPC error (-32700/-32600). The function validates every body with JSON Schema.',
    });
    const cloudWatchRole = this.api.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRole) {
      Validations.of(cloudWatchRole).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          'AmazonAPIGatewayPushToCloudWatchLogs is the policy AWS documents for the account-level API Gateway ' +
          'logging role; it holds only CloudWatch Logs actions, and access logs plus execution logs need that role.',
      });
    }
  }
}

/**
 * The function, not API Gateway, authorizes MCP requests: an OAuth 2.1 resource server must answer 401 with
 * an RFC 9728 challenge and a JSON-RPC body, and the metadata routes must be public. A gateway authorizer
 * would answer with its own body before the function could.
 */
function acknowledgeFunctionAuthorization(method: Method): void {
  Validations.of(method).acknowledge(
    {
      id: 'AwsSolutions-APIG4',
      reason:
        'The function validates the bearer token (issuer, audience, expiry, scopes) on every MCP request and ' +
        'answers 401 with the RFC 9728 challenge; the RFC 9728 metadata routes must be readable without a token.',
    },
    {
      id: 'AwsSolutions-COG4',
      reason:
        'Tokens come from the operator’s OAuth 2.1 authorization server (AUTH_ISSUER/AUTH_JWKS_URL), not ' +
        'necessarily Cognito; the function verifies them with the issuer’s JWKS.',
    },
  );
}

/** The console's page and files are static code with no data in them: they are public, as a login page is. */
function acknowledgePublicConsole(method: Method): void {
  Validations.of(method).acknowledge(
    {
      id: 'AwsSolutions-APIG4',
      reason:
        'The console route serves static files (page, script, style) that carry no data; the page signs in ' +
        'with OAuth 2.1 and every MCP call it makes is authorized by the function like any client.',
    },
    {
      id: 'AwsSolutions-COG4',
      reason: 'Static console files need no authorizer; the MCP calls the page makes carry a bearer token.',
    },
  );
}
