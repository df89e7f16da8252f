/** The `http-json` adapter kind: a paged REST JSON source declared in the directory (docs/sources.md). */
export { fill, HTTP_JSON_ADAPTER, httpJsonOptionsFromSpec } from './definition.js';
export type { HttpJsonAuth, HttpJsonFields, HttpJsonOptions, HttpJsonPagination } from './definition.js';
export { createHttpJsonSourceFactory } from './factory.js';
export { createHttpJsonSource } from './http-json-source.js';
export { atPath, httpJsonMapper } from './record-map.js';
