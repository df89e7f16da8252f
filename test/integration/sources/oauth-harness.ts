/**
 * The parts of an adapter-contract harness that the Entra and Okta runs share: the vendors on loopback
 * (a real `oidc-provider` plus the Graph and Okta replays, with the contract's tricky person), and the
 * switches that hold, slow, throttle or take down a replay.
 */
import type { ProviderPerson } from '../../../local/providers/population.js';
import type { ReplaySwitches, SeenRequest } from '../../../local/providers/replay/switches.js';
import { startOAuthVendors } from '../../helpers/oauth-vendors.js';
import type { OAuthVendors } from '../../helpers/oauth-vendors.js';
import type { AdapterHarness } from './adapter-contract.js';
import { TRICKY_PERSON } from './adapter-contract.js';

/** What a vendor-specific harness fills in. */
export interface VendorParts {
  readonly switches: (vendors: OAuthVendors) => ReplaySwitches;
  readonly seen: (vendors: OAuthVendors) => SeenRequest[];
  readonly people: (vendors: OAuthVendors) => readonly ProviderPerson[];
  readonly adapter: (
    vendors: OAuthVendors,
    variant: Parameters<AdapterHarness['adapter']>[0],
    down: boolean,
  ) => ReturnType<AdapterHarness['adapter']>;
  readonly searchMatches: (person: ProviderPerson, text: string) => boolean;
  readonly secrets: (vendors: OAuthVendors) => readonly string[];
}

/** A contract harness over the OAuth vendors. */
export function oauthHarness(parts: VendorParts): AdapterHarness {
  let vendors: OAuthVendors | undefined;
  let down = false;
  const running = (): OAuthVendors => {
    if (vendors === undefined) throw new Error('the vendors are not running');
    return vendors;
  };
  return {
    async start() {
      vendors = await startOAuthVendors(250, [TRICKY_PERSON]);
    },
    stop: () => running().close(),
    adapter: (variant = {}) => parts.adapter(running(), variant, down),
    people: () => parts.people(running()),
    providerPageSize: 100,
    holdLaterPages() {
      const seen = parts.seen(running());
      const base = seen.length;
      let release!: () => void;
      parts.switches(running()).laterPageGate = new Promise<void>((resolve) => (release = resolve));
      return { release, heldSince: () => seen.slice(base + 1).every((r) => r.answeredAt === undefined) };
    },
    slow(fromPage) {
      const switches = parts.switches(running());
      if (fromPage <= 1) switches.delayMs = 6000;
      else switches.laterPageDelayMs = 6000;
    },
    throttle() {
      const switches = parts.switches(running());
      switches.mode = 'throttle';
      switches.retryAfterS = 120;
    },
    down() {
      down = true;
      return Promise.resolve();
    },
    reset() {
      down = false;
      running().reset();
      return Promise.resolve();
    },
    abortsSeen: () => parts.seen(running()).filter((r) => r.aborted).length,
    secrets: () => parts.secrets(running()),
    searchMatches: parts.searchMatches,
  };
}

/** Case-insensitive prefix test. */
export const startsWith = (value: string | undefined, text: string): boolean =>
  value !== undefined && value.toLowerCase().startsWith(text.trim().toLowerCase());
