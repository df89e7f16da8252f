export { getPerson, listPeople, OPERATIONS, searchPeople } from './definitions.js';
export type { OperationDef, OperationEffect } from './definitions.js';
export { createArgumentValidator } from './validate.js';
