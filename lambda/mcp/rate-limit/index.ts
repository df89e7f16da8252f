export { RateLimiter } from './limiter.js';
export { rateLimitRefusal } from './refusal.js';
export type { RateDecision } from './limiter.js';
export { InMemoryRateCounterStore } from './memory-rate-counter-store.js';
export type { InMemoryRateCounterStoreOptions } from './memory-rate-counter-store.js';
