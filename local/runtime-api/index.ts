/**
 * Local Lambda: the Runtime API (2018-06-01) served to AWS's runtime interface client, one endpoint and
 * process per execution environment, with the function timeout enforced.
 */
export { InvocationError, RuntimePoolStartError, type InvocationErrorCode } from './errors.js';
export type { InvocationResponse } from './invocation.js';
export { MAX_BATCH_BYTES, ResponseBody } from './response-body.js';
export { RuntimePool, type InvokeOptions, type RuntimePoolOptions } from './runtime-pool.js';
export { defaultNodePath, ricEntry, runtimeEnvironment } from './runtime-process.js';
export { startInvokeApi, type InvokeApi, type InvokeApiOptions } from './invoke-api-server.js';
