export { createConformanceApp, loopbackOrigins, type ConformanceAppOptions } from './app.js';
export {
  ConformanceSetupError,
  startConformanceServer,
  type ConformanceServer,
  type StartConformanceOptions,
} from './start.js';
