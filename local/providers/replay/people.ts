/**
 * Seeded people for the replay servers, drawn from the fixture pool (`lambda/sources/fixture`): a
 * replayed vendor's population can share people (by email) with the demo's other sources, so the identity
 * merge shows across them. Same options, same people, on every run.
 */
import { hashString, mulberry32, poolBase, poolPerson, sample } from '../../../lambda/sources/index.js';
import type { PoolPerson } from '../../../lambda/sources/index.js';

/** Who lives in one replayed directory. */
export interface PopulationOptions {
  /** Seeds the population's own people (e.g. the tenant or org name). */
  readonly identity: string;
  readonly count: number;
  /** Share some people with another fixture population, by pool index (so the same email). */
  readonly overlap?: { readonly with: string; readonly withCount: number; readonly share: number };
}

/** One person plus the stable values a vendor record needs. */
export interface ReplayPerson extends PoolPerson {
  /** A stable id derived from the identity and position (a vendor's object id). */
  readonly key: number;
  /** Epoch ms of the person's last change, spread over the 30 days before 2026-11-01. */
  readonly updatedAt: number;
  readonly active: boolean;
}

const EPOCH = Date.UTC(2026, 10, 1);

/** The population, in a stable order. */
export function population(options: PopulationOptions): ReplayPerson[] {
  const random = mulberry32(hashString(`replay:${options.identity}`));
  const shared = new Map<number, number>();
  if (options.overlap !== undefined) {
    const take = Math.floor(options.count * options.overlap.share);
    const picks = sample(random, options.overlap.withCount, take);
    const positions = sample(random, options.count, take);
    positions.forEach((position, i) => shared.set(position, poolBase(options.overlap!.with) + picks[i]!));
  }
  const base = poolBase(options.identity);
  return Array.from({ length: options.count }, (_, i) => {
    const person = poolPerson(shared.get(i) ?? base + i);
    return {
      ...person,
      key: hashString(`${options.identity}:${i}`),
      updatedAt: EPOCH - Math.floor(random() * 30 * 86_400_000),
      active: random() > 0.08,
    };
  });
}
