/**
 * OpenLDAP `slapd` (the Debian package) started from a generated config in a temp directory, seeded with
 * `slapadd`, listening on a free loopback port, with a relay in front (`relay.ts`). Used by the `ldap`
 * adapter's tests, the benchmarks and `npm start` (when `slapd` is installed).
 */
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort } from '../free-port.js';
import { seededPopulation } from '../population.js';
import type { PopulationOptions, ProviderPerson } from '../population.js';
import { setEntryBusy } from './busy.js';
import type { DirectoryAdmin } from './busy.js';
import {
  directoryLdif,
  LDAP_PARTNERS_DN,
  LDAP_PEOPLE_DN,
  LDAP_READER_DN,
  LDAP_SUFFIX,
  slapdConfig,
} from './ldif.js';
import { startRelay } from './relay.js';
import type { LdapRelay } from './relay.js';

const SLAPD = ['/usr/sbin/slapd', '/usr/local/libexec/slapd'];
const SLAPADD = ['/usr/sbin/slapadd', '/usr/local/sbin/slapadd'];

/** The slapd binary, or undefined when OpenLDAP is not installed. */
export function slapdPath(): string | undefined {
  return SLAPD.find((path) => existsSync(path));
}

/** Options of {@link startSlapd}. */
export interface SlapdOptions {
  /** @default { name: 'acme-ldap', size: 250, overlap: 100, overlapOffset: 60 } */
  population?: PopulationOptions;
  /** People added after the seeded ones (tests add unusual names). @default [] */
  extraPeople?: readonly ProviderPerson[];
}

/** A running directory. */
export interface LocalSlapd {
  /** `ldap://127.0.0.1:<relay port>` (through the relay). */
  readonly url: string;
  /** slapd itself, without the relay. */
  readonly directUrl: string;
  readonly baseDn: string;
  readonly bindDn: string;
  readonly bindPassword: string;
  readonly people: readonly ProviderPerson[];
  /** A person outside the people subtree (never returned by a search under `baseDn`). */
  readonly contractor: ProviderPerson;
  /**
   * A base DN whose searches slapd answers with the contractor, named outside that base (a suffix alias
   * that does not rewrite result DNs back): configure a source with it to see a foreign entry arrive.
   */
  readonly foreignBaseDn: string;
  readonly relay: LdapRelay;
  /**
   * The directory's administrator (the root DN, straight to slapd): how a test adds, changes and deletes
   * entries over LDAP as an operator would. A local secret, never given to a source.
   */
  readonly admin: DirectoryAdmin;
  /**
   * Marks the first seeded person busy (slapo-retcode): every search under `baseDn` that reaches them
   * ends with result 51 busy, until called with `false`.
   */
  setBusy(busy: boolean): Promise<void>;
  stop(): Promise<void>;
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`slapd exited with ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('slapd did not start listening in time');
}

/** Generates, seeds and starts slapd. Throws when slapd is not installed (check {@link slapdPath}). */
export async function startSlapd(options: SlapdOptions = {}): Promise<LocalSlapd> {
  const slapd = slapdPath();
  const slapadd = SLAPADD.find((path) => existsSync(path));
  if (slapd === undefined || slapadd === undefined) throw new Error('slapd is not installed');
  const dir = await mkdtemp(join(tmpdir(), 'bos-slapd-'));
  await mkdir(join(dir, 'data'));
  const bindPassword = randomBytes(18).toString('base64url');
  const people = [
    ...seededPopulation(
      options.population ?? { name: 'acme-ldap', size: 250, overlap: 100, overlapOffset: 60 },
    ),
    ...(options.extraPeople ?? []),
  ];
  const [contractor] = seededPopulation({ name: 'acme-contractors', size: 1 });
  if (contractor === undefined) throw new Error('no contractor');
  const conf = join(dir, 'slapd.conf');
  const rootPassword = randomBytes(18).toString('base64url');
  await writeFile(conf, slapdConfig(dir, rootPassword), { mode: 0o600 });
  await writeFile(join(dir, 'seed.ldif'), directoryLdif(people, bindPassword, contractor), { mode: 0o600 });
  const added = spawnSync(slapadd, ['-q', '-f', conf, '-b', LDAP_SUFFIX, '-l', join(dir, 'seed.ldif')], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (added.status !== 0) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`slapadd failed: ${added.stderr.slice(0, 500)}`);
  }
  const port = await freeLoopbackPort();
  // `-d 0` keeps slapd in the foreground (no service manager here), logging nothing.
  const child = spawn(slapd, ['-h', `ldap://127.0.0.1:${port}/`, '-f', conf, '-d', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let relay: LdapRelay | undefined;
  const stop = async () => {
    await relay?.close();
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await Promise.race([once(child, 'exit'), new Promise((resolve) => setTimeout(resolve, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child, 15_000);
    relay = await startRelay(port);
  } catch (error) {
    await stop();
    throw error;
  }
  const admin: DirectoryAdmin = {
    url: `ldap://127.0.0.1:${port}`,
    rootDn: `cn=admin,${LDAP_SUFFIX}`,
    rootPassword,
  };
  return {
    url: `ldap://127.0.0.1:${relay.port}`,
    directUrl: `ldap://127.0.0.1:${port}`,
    baseDn: LDAP_PEOPLE_DN,
    bindDn: LDAP_READER_DN,
    bindPassword,
    people,
    contractor,
    foreignBaseDn: LDAP_PARTNERS_DN,
    relay,
    admin,
    setBusy: (busy) => setEntryBusy(admin, `uid=${people[0]?.id ?? ''},${LDAP_PEOPLE_DN}`, busy),
    stop,
  };
}
