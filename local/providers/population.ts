/**
 * The seeded people the local providers serve: deterministic for a given name and size, drawn from the
 * same pool as the fixture sources, so some of them are fixture people (same email) and the identity
 * merge joins them across real protocols. The first `overlap` people are `acme-hr`'s own people, spread
 * evenly over its 240 records.
 */
import { mulberry32, hashString, poolBase, poolPerson } from '../../lambda/sources/index.js';

/** One person of a local provider. */
export interface ProviderPerson {
  /** Stable id: `u` + six digits. */
  readonly id: string;
  readonly userName: string;
  readonly givenName: string;
  readonly familyName: string;
  readonly displayName: string;
  readonly email: string;
  /** Further addresses, where a provider keeps several (a SCIM user's non-primary `emails`). */
  readonly otherEmails?: readonly string[];
  readonly phone: string;
  readonly title: string;
  readonly department: string;
  readonly active: boolean;
  /** ISO 8601, second precision, `Z`. */
  readonly lastModified: string;
}

/** Options of {@link seededPopulation}. */
export interface PopulationOptions {
  /** Seeds the provider's own people and attributes (use the source id). */
  readonly name: string;
  readonly size: number;
  /** How many of them are `acme-hr` fixture people. @default 0 */
  readonly overlap?: number;
  /** Which slice of acme-hr's people to share (0 = from its first). @default 0 */
  readonly overlapOffset?: number;
}

const TITLES = ['Analyst', 'Engineer', 'Manager', 'Director', 'Specialist', 'Coordinator'];
const DEPARTMENTS = ['Engineering', 'Finance', 'Legal', 'Operations', 'People', 'Sales', 'Support'];
/** acme-hr's record count in the demo directory; shared people are among them. */
const HR_RECORDS = 240;
const NEWEST = Date.parse('2026-10-08T12:00:00Z');

/** The provider's people, in id order. */
export function seededPopulation(options: PopulationOptions): ProviderPerson[] {
  const random = mulberry32(hashString(`provider/${options.name}`));
  const own = poolBase(options.name);
  const hr = poolBase('acme-hr');
  const overlap = Math.min(options.overlap ?? 0, HR_RECORDS, options.size);
  const offset = options.overlapOffset ?? 0;
  const people: ProviderPerson[] = [];
  for (let i = 0; i < options.size; i++) {
    const shared = i < overlap;
    const person = poolPerson(
      shared ? hr + ((offset + Math.floor((i * HR_RECORDS) / Math.max(overlap, 1))) % HR_RECORDS) : own + i,
    );
    const seconds = Math.floor(random() * 30 * 24 * 3600);
    people.push({
      id: `u${String(i + 1).padStart(6, '0')}`,
      userName: person.email,
      givenName: person.first,
      familyName: person.last,
      displayName: `${person.first} ${person.last}`,
      email: person.email,
      phone: person.phone,
      title: TITLES[Math.floor(random() * TITLES.length)] ?? 'Analyst',
      department: DEPARTMENTS[Math.floor(random() * DEPARTMENTS.length)] ?? 'People',
      active: random() > 0.1,
      lastModified: `${new Date(NEWEST - seconds * 1000).toISOString().slice(0, 19)}Z`,
    });
  }
  return people;
}
