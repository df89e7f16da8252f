/** Source adapters implementing the federation engine's SourceAdapter port. */
export {
  DEMO_SOURCE_OPTIONS,
  applyQuery,
  createDemoSources,
  createFixtureSource,
  fixtureRecords,
  hashString,
  mulberry32,
  poolBase,
  poolPerson,
  POOL_RANGE,
  sample,
  sleep,
} from './fixture/index.js';
export type {
  FixtureFailure,
  FixtureOverlap,
  FixtureSourceOptions,
  PoolPerson,
  Random,
} from './fixture/index.js';
