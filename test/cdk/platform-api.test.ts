/**
 * Template tests of the API: every route streams through the response-streaming Lambda URI with the
 * 15-minute timeout, the 401 gateway response carries the RFC 9728 challenge, CORS allows the MCP headers,
 * access logs are JSON, the stage is throttled, and invoke permissions name each method.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MCP_EXPOSED_HEADERS, MCP_REQUEST_HEADERS } from '../../lib/index.js';
import {
  methodRoutes,
  onlyResource,
  render,
  resourceById,
  resourcesOf,
  synthStack,
} from './stack-fixture.js';

const { template } = synthStack({ stage: 'dev' });
const routes = methodRoutes(template);
const proxied = routes.filter((route) => route.httpMethod !== 'OPTIONS');
const [functionId] = onlyResource(template, 'AWS::Lambda::Function');

describe('platform API routes', () => {
  it('serves POST, GET and DELETE on the MCP path, GET on both RFC 9728 metadata paths and the console, nothing else', () => {
    const served = proxied.map((route) => `${route.httpMethod} ${route.path}`).sort();
    assert.deepEqual(
      served,
      [
        'GET /.well-known/oauth-protected-resource',
        'GET /.well-known/oauth-protected-resource/mcp/apps/bos/platform',
        'GET /console',
        'GET /console/app.css',
        'GET /console/app.js',
        'GET /console/icon.svg',
        'GET /mcp/apps/bos/platform',
        'DELETE /mcp/apps/bos/platform',
        'POST /mcp/apps/bos/platform',
      ].sort(),
    );
  });

  it('puts every proxied method on an AWS_PROXY integration in STREAM mode with a 900,000 ms timeout', () => {
    for (const route of proxied) {
      const integration = route.properties.Integration as Record<string, unknown>;
      const where = `${route.httpMethod} ${route.path}`;
      assert.equal(integration.Type, 'AWS_PROXY', where);
      assert.equal(integration.IntegrationHttpMethod, 'POST', where);
      assert.equal(integration.ResponseTransferMode, 'STREAM', where);
      assert.equal(integration.TimeoutInMillis, 900_000, where);
    }
  });

  it('invokes the function through the 2021-11-15 response-streaming-invocations URI on every proxied method', () => {
    for (const route of proxied) {
      const uri = render((route.properties.Integration as Record<string, unknown>).Uri);
      assert.equal(
        uri,
        `arn:<Ref:AWS::Partition>:apigateway:<Ref:AWS::Region>:lambda:path/2021-11-15/functions/` +
          `<${functionId}.Arn>/response-streaming-invocations`,
        `${route.httpMethod} ${route.path}`,
      );
    }
  });

  it('leaves authorization of proxied methods to the function (no gateway authorizer to pre-empt the 401)', () => {
    for (const route of proxied) assert.equal(route.properties.AuthorizationType, 'NONE');
  });

  it('is a Regional REST API', () => {
    const [, api] = onlyResource(template, 'AWS::ApiGateway::RestApi');
    assert.deepEqual(api.Properties?.EndpointConfiguration, { Types: ['REGIONAL'] });
  });
});

describe('platform API authorization challenge', () => {
  const [, response] = onlyResource(template, 'AWS::ApiGateway::GatewayResponse');

  it('answers API Gateway’s own UNAUTHORIZED with 401 and WWW-Authenticate naming the metadata URL', () => {
    assert.equal(response.Properties?.ResponseType, 'UNAUTHORIZED');
    assert.equal(response.Properties?.StatusCode, '401');
    const header = render(
      (response.Properties?.ResponseParameters as Record<string, unknown>)[
        'gatewayresponse.header.WWW-Authenticate'
      ],
    );
    assert.match(
      header,
      /^'Bearer resource_metadata="https:\/\/<Ref:\w+>\.execute-api\.<Ref:AWS::Region>\.<Ref:AWS::URLSuffix>\/dev\/\.well-known\/oauth-protected-resource\/mcp\/apps\/bos\/platform"'$/,
    );
  });

  it('gives the 401 a JSON-RPC error body that names the same metadata URL', () => {
    const body = render(
      (response.Properties?.ResponseTemplates as Record<string, unknown>)['application/json'],
    );
    const parsed = JSON.parse(body) as {
      jsonrpc: string;
      error: { code: number; data: { resource_metadata: string } };
    };
    assert.equal(parsed.jsonrpc, '2.0');
    assert.equal(parsed.error.code, -32011);
    assert.match(
      parsed.error.data.resource_metadata,
      /\/dev\/\.well-known\/oauth-protected-resource\/mcp\/apps\/bos\/platform$/,
    );
  });
});

describe('platform API CORS preflight', () => {
  const preflights = routes.filter((route) => route.httpMethod === 'OPTIONS');

  it('answers OPTIONS on the MCP path and both metadata paths with a MOCK integration', () => {
    assert.deepEqual(preflights.map((route) => route.path).sort(), [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp/apps/bos/platform',
      '/mcp/apps/bos/platform',
    ]);
    for (const route of preflights) {
      assert.equal((route.properties.Integration as Record<string, unknown>).Type, 'MOCK');
    }
  });

  it('allows and exposes every MCP header and the MCP methods on the MCP path', () => {
    const mcp = preflights.find((route) => route.path === '/mcp/apps/bos/platform');
    assert.ok(mcp);
    const integration = mcp.properties.Integration as {
      IntegrationResponses: Array<Record<string, unknown>>;
    };
    const headers = integration.IntegrationResponses[0]?.ResponseParameters as Record<string, string>;
    const listed = (name: string): string[] =>
      (headers[`method.response.header.${name}`] ?? '').replace(/'/g, '').split(',');
    assert.deepEqual(listed('Access-Control-Allow-Headers').sort(), [...MCP_REQUEST_HEADERS].sort());
    assert.deepEqual(listed('Access-Control-Expose-Headers').sort(), [...MCP_EXPOSED_HEADERS].sort());
    assert.deepEqual(listed('Access-Control-Allow-Methods').sort(), ['DELETE', 'GET', 'OPTIONS', 'POST']);
  });

  it('echoes only the configured origins (Claude hosts by default)', () => {
    const mcp = preflights.find((route) => route.path === '/mcp/apps/bos/platform');
    const integration = mcp?.properties.Integration as {
      IntegrationResponses: Array<Record<string, unknown>>;
    };
    const response = integration.IntegrationResponses[0];
    // CDK's multi-origin preflight: the first origin is the static header, the others are echoed by the
    // response template only when the request's Origin equals them; any other Origin gets no match.
    const parameters = response?.ResponseParameters as Record<string, string>;
    assert.equal(parameters['method.response.header.Access-Control-Allow-Origin'], "'https://claude.ai'");
    assert.equal(parameters['method.response.header.Vary'], "'Origin'");
    const templateText = JSON.stringify(response?.ResponseTemplates);
    assert.match(templateText, /\$origin == \\"https:\/\/claude\.com\\"/);
    assert.doesNotMatch(templateText + JSON.stringify(parameters), /'\*'/);
  });
});

describe('platform API stage', () => {
  const [, stage] = onlyResource(template, 'AWS::ApiGateway::Stage');

  it('writes JSON access logs to a log group with a retention', () => {
    const settings = stage.Properties?.AccessLogSetting as { DestinationArn: unknown; Format: string };
    const entry = JSON.parse(settings.Format.replace('$context.error.messageString', '"m"')) as Record<
      string,
      string
    >;
    assert.equal(entry.requestId, '$context.requestId');
    assert.equal(entry.status, '$context.status');
    assert.equal(entry.integrationError, '$context.integrationErrorMessage');
    const logGroupId = render(settings.DestinationArn).replace(/^<(\w+)\.Arn>$/, '$1');
    const logGroup = resourceById(template, 'AWS::Logs::LogGroup', logGroupId);
    assert.ok(logGroup, `access logs go to ${logGroupId}, which is not a log group`);
    assert.equal(logGroup.Properties?.RetentionInDays, 7);
  });

  it('throttles the whole stage and logs errors for every method without data tracing', () => {
    const [settings] = stage.Properties?.MethodSettings as Array<Record<string, unknown>>;
    assert.deepEqual(
      { ...settings },
      {
        HttpMethod: '*',
        ResourcePath: '/*',
        ThrottlingRateLimit: 50,
        ThrottlingBurstLimit: 100,
        LoggingLevel: 'ERROR',
        DataTraceEnabled: false,
      },
    );
  });
});

describe('platform function invoke permissions', () => {
  const permissions = resourcesOf(template, 'AWS::Lambda::Permission');

  it('grants API Gateway one permission per proxied method, scoped to the API, the stage, the method and the path', () => {
    const [stageId] = onlyResource(
      template,
      'AWS::ApiGateway::Stage',
      (s) => s.Properties?.StageName === 'dev',
    );
    const arns = permissions.map(([, permission]) => render(permission.Properties?.SourceArn)).sort();
    const expected = proxied.map((route) => `/<Ref:${stageId}>/${route.httpMethod}${route.path}`).sort();
    assert.equal(arns.length, proxied.length);
    for (const [index, arn] of arns.entries()) {
      assert.match(
        arn,
        /^arn:<Ref:AWS::Partition>:execute-api:<Ref:AWS::Region>:<Ref:AWS::AccountId>:<Ref:\w+>\//,
      );
      assert.ok(arn.endsWith(expected[index] ?? '?'), `${arn} should end with ${expected[index]}`);
      assert.doesNotMatch(arn, /\*/);
    }
    for (const [, permission] of permissions) {
      assert.equal(permission.Properties?.Action, 'lambda:InvokeFunction');
      assert.equal(permission.Properties?.Principal, 'apigateway.amazonaws.com');
    }
  });
});

describe('platform API console route', () => {
  const preflights = routes.filter((route) => route.httpMethod === 'OPTIONS').map((route) => route.path);
  const [, fn] = onlyResource(template, 'AWS::Lambda::Function');
  const variables = (fn.Properties?.Environment as { Variables: Record<string, unknown> }).Variables;

  it('answers no CORS preflight on the console: its page and files are fetched from their own origin', () => {
    assert.ok(preflights.includes('/mcp/apps/bos/platform'));
    assert.ok(!preflights.some((path) => path.startsWith('/console')), preflights.join(', '));
  });

  it('lets the console call the endpoint by listing the API’s own origin, exactly, beside the configured ones', () => {
    const [apiId] = onlyResource(template, 'AWS::ApiGateway::RestApi');
    const origins = render(variables['MCP_ALLOWED_ORIGINS']).split(',');
    assert.deepEqual(origins, [
      'https://claude.ai',
      'https://claude.com',
      `https://<Ref:${apiId}>.execute-api.<Ref:AWS::Region>.<Ref:AWS::URLSuffix>`,
    ]);
    assert.ok(!origins.includes('*'));
  });

  it('outputs the console URL beside the endpoint URL', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    const endpoint = render(outputs['EndpointUrl']?.Value);
    const consoleUrl = render(outputs['ConsoleUrl']?.Value);
    assert.equal(consoleUrl, endpoint.replace('/mcp/apps/bos/platform', '/console'));
    assert.match(consoleUrl, /\/dev\/console$/);
  });
});
