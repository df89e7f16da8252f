/**
 * One bound LDAP connection for one read: the transport rule (`ldaps://`, or StartTLS; plain `ldap://` only
 * to a loopback host on a local run), TLS 1.2+ verified against the configured CA and name, the simple bind
 * with the source's credential, and a teardown the read's signal and deadline fire, so the directory sees the
 * search abandoned. Every LDAP step runs through `guarded`, which maps a failure to the five codes and logs it.
 * The adapter's reads and the Active Directory tombstone reader open their connections here.
 */
import { connect as netConnect, isIP } from 'node:net';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { ConnectionOptions, TLSSocket } from 'node:tls';
import { Client } from 'ldapts';
import type { SourceRef } from '../../federation/index.js';
import { isLoopbackHost, ProviderError, resolveCredential } from '../kernel/index.js';
import type { ProviderSettings, ReadBudget } from '../kernel/index.js';
import type { SourceSpec } from '../registry/types.js';
import { ldapFailure } from './errors.js';
import type { LdapSourceOptions } from './options.js';

/** A bound connection; `close` always runs (in a `finally`). */
export interface LdapConnection {
  readonly client: Client;
  /** Runs one LDAP step, turning its failure into a logged {@link ProviderError}. */
  readonly guarded: <T>(step: () => Promise<T>) => Promise<T>;
  readonly close: () => Promise<void>;
}

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

/** Whether the connection would be protected (ldaps, StartTLS) or is a permitted loopback one. */
function transportAllowed(options: LdapSourceOptions, settings: ProviderSettings): boolean {
  if (options.url.protocol === 'ldaps:' || options.startTls) return true;
  return settings.allowLoopbackHttp === true && isLoopbackHost(options.url.hostname);
}

/** Connects and binds as the source's account, within `budget`. */
export async function openLdapConnection(
  spec: SourceSpec,
  options: LdapSourceOptions,
  settings: ProviderSettings,
  source: SourceRef,
  budget: ReadBudget,
): Promise<LdapConnection> {
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
  const connection: LdapConnection = {
    client,
    guarded: async (step) => {
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
    },
    close: async () => {
      signal.removeEventListener('abort', teardown);
      // A polite unbind when the connection is still usable; never waited on past a short moment.
      const unbind = client.isConnected ? client.unbind().catch(() => undefined) : Promise.resolve();
      await Promise.race([unbind, new Promise((resolve) => setTimeout(resolve, 200))]);
      teardown();
    },
  };
  try {
    if (options.startTls) await connection.guarded(() => client.startTLS(tlsOptionsFor(options)));
    await connection.guarded(() => client.bind(options.bindDn, password));
    return connection;
  } catch (error) {
    await connection.close();
    throw error;
  }
}
