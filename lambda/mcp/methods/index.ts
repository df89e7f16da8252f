/** The method table both protocol shapes dispatch through, its handlers and what a handler is given. */
export { clientNotifications, methods, servedMethod } from './table.js';
export type { MethodSpec } from './table.js';
export { discover, promptResult, serverInfo } from './handlers.js';
export type { MethodCall, RequestScope } from './scope.js';
