/**
 * CDK app entry (`cdk.json` "app"): builds one BosMcpStack from CDK context and nothing else.
 * `npx cdk synth -c stage=prod -c authIssuer=… -c authJwksUrl=…`; every key is listed in docs/deploy.md.
 */
import { App } from 'aws-cdk-lib';
import { BosMcpStack, StackConfigError, stackNameForStage, stackPropsFromContext } from '../lib/index.js';

const app = new App();
try {
  const props = stackPropsFromContext((key) => app.node.tryGetContext(key));
  new BosMcpStack(app, stackNameForStage(props.stage), props);
  app.synth();
} catch (error) {
  // A configuration the operator can fix is one line saying what to set, not a stack trace.
  if (!(error instanceof StackConfigError)) throw error;
  process.stderr.write(`error: ${error.message} (every context key: docs/deploy.md)\n`);
  process.exitCode = 2;
}
