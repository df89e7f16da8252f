/**
 * CDK app entry (`cdk.json` "app"): builds one BosMcpStack from CDK context and nothing else.
 * `npx cdk synth -c stage=prod -c authIssuer=… -c authJwksUrl=…`; every key is listed in docs/deploy.md.
 */
import { App } from 'aws-cdk-lib';
import { BosMcpStack, stackNameForStage, stackPropsFromContext } from '../lib/index.js';

const app = new App();
const props = stackPropsFromContext((key) => app.node.tryGetContext(key));
new BosMcpStack(app, stackNameForStage(props.stage), props);
app.synth();
