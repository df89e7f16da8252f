export { bosTools } from './bos-tools.js';
export type { BosTool } from './bos-tools.js';
export { callPlanner } from './call-plan.js';
export type { CallPlanner } from './call-plan.js';
export { contextRefusal } from './context-access.js';
export type { BosToolDeps, OperationCompleteness, OperationReport, OperationTelemetry } from './deps.js';
export { directTools } from './direct-tools.js';
export { directResult, envelopeResult, IDENTITY_CONTRACT_VERSION, plainResult } from './results.js';
export { runOperation } from './run-operation.js';
