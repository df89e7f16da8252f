/**
 * The shared adapter contract for the `scim` adapter against the real local SCIM server
 * (`local/providers/scim`, scimmy on express 4).
 */
import { createScimSource, scimOptionsFromSpec } from '../../../lambda/sources/scim/index.js';
import type { SourceSpec } from '../../../lambda/sources/index.js';
import { startScimServer } from '../../../local/providers/scim/index.js';
import type { ScimServer } from '../../../local/providers/scim/index.js';
import { freePort } from '../../helpers/free-port.js';
import { adapterContract, TRICKY_PERSON } from './adapter-contract.js';

let server: ScimServer | undefined;
let downUrl: string | undefined;
const running = (): ScimServer => {
  if (server === undefined) throw new Error('the SCIM server is not running');
  return server;
};

adapterContract('scim', {
  async start() {
    server = await startScimServer({ extraPeople: [TRICKY_PERSON] });
  },
  stop: () => running().close(),
  adapter(variant = {}) {
    const scim = running();
    scim.behaviour.wrongLocationHost = variant.foreignRecords === true;
    const spec: SourceSpec = {
      source_id: 'acme-scim',
      adapter: 'scim',
      // 150 per provider page: each provider page is split into delivery pages of 100 and 50.
      options: { base_url: downUrl ?? scim.baseUrl, page_size: 150 },
      credential: {
        name: 'ACME_SCIM_TOKEN',
        value: () => Promise.resolve(variant.badCredential === true ? 'wrong-token-b1e4' : scim.token),
      },
    };
    return createScimSource(spec, scimOptionsFromSpec(spec, true), {
      allowLoopbackHttp: true,
      ...(variant.log === undefined ? {} : { log: variant.log }),
    });
  },
  people: () => running().people,
  providerPageSize: 150,
  holdLaterPages() {
    const scim = running();
    const base = scim.requests.length;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    scim.behaviour.beforePage = (page) => (page > base + 1 ? held : undefined);
    return {
      release,
      heldSince: () => scim.requests.slice(base + 1).every((r) => !r.answered),
    };
  },
  slow(fromPage) {
    const scim = running();
    const base = scim.requests.length;
    scim.behaviour.beforePage = (page) =>
      page >= base + fromPage ? new Promise((resolve) => setTimeout(resolve, 6000)) : undefined;
  },
  throttle() {
    running().behaviour.rateLimit = { retryAfterSeconds: 120 };
  },
  async down() {
    downUrl = `http://127.0.0.1:${await freePort()}/scim/v2`;
  },
  reset() {
    const scim = running();
    downUrl = undefined;
    scim.behaviour.rateLimit = undefined;
    scim.behaviour.unavailable = undefined;
    scim.behaviour.beforePage = undefined;
    scim.behaviour.wrongLocationHost = false;
    scim.behaviour.delayMs = 0;
    return Promise.resolve();
  },
  abortsSeen: () => running().requests.filter((r) => r.abortedByClient).length,
  secrets: () => [
    running().token,
    'wrong-token-b1e4',
    'Authorization failure',
    'Too many requests',
    'hr.other.example',
  ],
});
