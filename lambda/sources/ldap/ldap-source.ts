/**
 * The `ldap` adapter: a simple bind (over `ldaps://`, or StartTLS; plain `ldap://` only to a loopback host
 * on a local run), then an RFC 2696 paged search under the base DN, read page by page through the
 * kernel's page loop (ldapts keeps the paged-results cookie; `paged-search.ts` adds the page-size and
 * reference rules). The directory profile (`profiles.ts`) is the definition's, or with `auto` the
 * rootDSE's answer, learned once per warm function. The read's signal and deadline tear the connection
 * down, so the directory sees the search abandoned.
 */
import { connect as netConnect, isIP } from 'node:net';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { ConnectionOptions, TLSSocket } from 'node:tls';
import { Client } from 'ldapts';
import type { SearchResult } from 'ldapts';
import type {
  RawRecord,
  ReadOptions,
  SourceAdapter,
  SourceQuery,
  SourceRef,
} from '../../federation/index.js';
import {
  isLoopbackHost,
  ProviderError,
  providerPages,
  ReadBudget,
  resolveCredential,
} from '../kernel/index.js';
import type { ProviderSettings } from '../kernel/index.js';
import type { SourceSpec } from '../registry/types.js';
import { isActiveDirectoryRootDse } from './active-directory.js';
import { ldapEntryMapper } from './entry-record.js';
import { ldapFailure } from './errors.js';
import { ldapFilterFor } from './filters.js';
import { attributeMapFor } from './options.js';
import type { LdapSourceOptions } from './options.js';
import { pagedSearch } from './paged-search.js';
import { LDAP_PROFILES, requestedAttributes } from './profiles.js';
import type { LdapAttributeMap, LdapProfileName } from './attribute-maps.js';
import type { LdapProfile } from './profiles.js';

type Pages = AsyncIterator<SearchResult>;

/**
 * TLS 1.2+, verified against the configured CA (else the platform's), and against the configured server
 * name (else the URL's host; SNI only for a name, as RFC 6066 forbids an IP address there).
 */
function tlsOptionsFor(options: LdapSourceOptions): ConnectionOptions {
  const host = options.tlsServerName ?? options.url.hostname.replace(/^\[|\]$/g, '');
  return {
    minVersion: 'TLSv1.2',
    ...(isIP(host) === 0 ? { servername: host } : {}),
    ...(options.tlsCa === undefined ? {} : { ca: options.tlsCa }),
  };
}

/**
 * The binary attributes to read as bytes. ldapts matches these names case-sensitively, so the schema's
 * spelling goes with the definition's (an `external_id` written `objectguid`).
 */
function binaryNames(profile: LdapProfile, map: LdapAttributeMap): string[] {
  const names = Object.keys(profile.binary);
  const own = names.some((name) => name.toLowerCase() === map.external_id.toLowerCase());
  return own ? [...names, map.external_id] : names;
}

/** Whether the rootDSE names a domain controller (an unreadable rootDSE reads as a standard directory). */
async function detectProfile(client: Client): Promise<LdapProfileName> {
  const root = await client.search('', {
    scope: 'base',
    filter: '(objectClass=*)',
    attributes: ['supportedCapabilities', 'forestFunctionality'],
  });
  const entry = root.searchEntries[0];
  return entry !== undefined && isActiveDirectoryRootDse(entry) ? 'active-directory' : 'standard';
}

/** Whether the connection would be protected (ldaps, StartTLS) or is a permitted loopback one. */
function transportAllowed(options: LdapSourceOptions, settings: ProviderSettings): boolean {
  if (options.url.protocol === 'ldaps:' || options.startTls) return true;
  return settings.allowLoopbackHttp === true && isLoopbackHost(options.url.hostname);
}

/** An LDAP adapter for one validated definition. */
export function createLdapSource(
  spec: SourceSpec,
  options: LdapSourceOptions,
  settings: ProviderSettings = {},
): SourceAdapter {
  const source: SourceRef = { source_type: options.sourceType, source_identity: spec.source_id };
  // Learned for the warm function: the profile an `auto` source detected, a page size the server took.
  let profileName: LdapProfileName | undefined = options.profile === 'auto' ? undefined : options.profile;
  let pageSize = options.pageSize;

  async function* read(query: SourceQuery, readOptions: ReadOptions): AsyncGenerator<RawRecord[]> {
    const budget = new ReadBudget(readOptions);
    if (!transportAllowed(options, settings)) throw new ProviderError('source_unavailable', 'insecure_url');
    const password = await resolveCredential(spec.credential);
    const signal = budget.requestSignal();
    // Every socket ldapts opens, so an abort can close them: ldapts itself takes no AbortSignal.
    const sockets = new Set<Socket | TLSSocket>();
    const track = <S extends Socket | TLSSocket>(socket: S): S => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      return socket;
    };
    const teardown = () => {
      for (const socket of sockets) socket.destroy();
    };
    signal.addEventListener('abort', teardown, { once: true });
    const client = new Client({
      url: options.url.href.replace(/\/$/, ''),
      timeout: Math.max(1, budget.remaining()),
      connectTimeout: Math.max(1, Math.min(budget.remaining(), 10_000)),
      // ldapts treats any tlsOptions as "connect with TLS": give them only for ldaps://.
      ...(options.url.protocol === 'ldaps:' ? { tlsOptions: tlsOptionsFor(options) } : {}),
      createConnection: ((...args: Parameters<typeof netConnect>) =>
        track(netConnect(...args))) as typeof netConnect,
      createSecureConnection: ((...args: Parameters<typeof tlsConnect>) =>
        track(tlsConnect(...args))) as typeof tlsConnect,
    });
    const guarded = async <T>(step: () => Promise<T>): Promise<T> => {
      try {
        return await step();
      } catch (error) {
        const failure = ldapFailure(error, budget);
        if (failure instanceof ProviderError)
          settings.log?.({
            event: 'provider_failed',
            source,
            code: failure.code,
            reason: failure.reason,
            ...(failure.status === undefined ? {} : { status: failure.status }),
          });
        throw failure;
      }
    };
    try {
      if (options.startTls) await guarded(() => client.startTLS(tlsOptionsFor(options)));
      await guarded(() => client.bind(options.bindDn, password));
      profileName ??= await guarded(() => detectProfile(client));
      const profile = LDAP_PROFILES[profileName];
      const map = attributeMapFor(options, profileName);
      const pages = pagedSearch({
        pageSize: () => pageSize,
        lowered: (size) => (pageSize = size),
        search: (size) => {
          const search = client.searchPaginated(
            options.baseDn,
            {
              scope: 'sub',
              filter: ldapFilterFor(query, options.objectClass ?? profile.objectClass, map, profile),
              attributes: requestedAttributes(profile, map),
              explicitBufferAttributes: binaryNames(profile, map),
              paged: { pageSize: size },
              timeLimit: Math.max(1, Math.ceil(budget.remaining() / 1000)),
            },
            profile.controls(),
          );
          return search[Symbol.asyncIterator]();
        },
      });
      yield* providerPages<Pages>({
        source,
        first: pages,
        settings,
        ...(query.operation === 'search_people' && query.limit !== undefined ? { limit: query.limit } : {}),
        toRecord: ldapEntryMapper(source, options.baseDn, map, new Date().toISOString(), profile),
        fetchPage: (iterator) =>
          guarded(async () => {
            const step = await iterator.next();
            return step.done === true
              ? { items: [], next: undefined }
              : { items: step.value.searchEntries, next: iterator };
          }),
      });
    } finally {
      signal.removeEventListener('abort', teardown);
      // A polite unbind when the connection is still usable; never waited on past a short moment.
      const unbind = client.isConnected ? client.unbind().catch(() => undefined) : Promise.resolve();
      await Promise.race([unbind, new Promise((resolve) => setTimeout(resolve, 200))]);
      teardown();
    }
  }

  return {
    source,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    read,
  };
}
