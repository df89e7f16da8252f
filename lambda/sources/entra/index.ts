/** The `entra` adapter kind: Microsoft Entra ID users through Microsoft Graph (docs/sources.md). */
export { createEntraSourceFactory } from './factory.js';
export { createEntraSource } from './entra-source.js';
export { firstGraphPage, GRAPH_SELECT, graphRequestFor, odataString } from './graph-query.js';
export type { GraphRequest } from './graph-query.js';
export {
  ENTRA_ADAPTER,
  entraOptionsFromSpec,
  GRAPH_DEFAULT_SCOPE,
  GRAPH_MAX_TOP,
  GRAPH_URL,
} from './options.js';
export type { EntraSourceOptions } from './options.js';
export { graphUserMapper } from './user-record.js';
