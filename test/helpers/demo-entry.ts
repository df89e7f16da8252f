/**
 * Lambda entry of the demo MCP server (`echo`, `demo_events`, see `demo-server.ts`): no BOS app and no
 * authentication, used only by the tests that exercise the runtime, sessions and streaming on their own
 * (bundled like a deployed entry by the local-stack tests); nothing deploys it. It serves the platform path so those tests reach it exactly as a client reaches the platform.
 */
import { loadConfig } from '../../lambda/aws/index.js';
import { createRestEntry } from '../../lambda/handlers/compose-entry.js';
import { composeStores } from '../../lambda/handlers/compose-stores.js';
import { createDemoServer } from './demo-server.js';

/** The platform endpoint (DESIGN §1); the same constant the CDK routes (`lib/routes.ts`). */
const MCP_PATH = '/mcp/apps/bos/platform';

/** The demo handler. */
export const handler = createRestEntry({
  component: 'demo',
  serves: (path) => path === MCP_PATH,
  compose(logger, telemetry) {
    const config = loadConfig(process.env);
    const server = createDemoServer({
      ...composeStores(config),
      allowedOrigins: config.allowedOrigins,
      logger,
      callTelemetry: telemetry.calls,
      telemetry: telemetry.tools,
    });
    return {
      handle: (request, ctx) => server.handle(request, ctx),
      settled: () => server.settled(),
      responseStallMs: config.responseStallMs,
      ...(config.endpoint === undefined ? {} : { origin: config.endpoint.origin }),
    };
  },
});
