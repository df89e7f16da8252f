/**
 * A Samba Active Directory domain controller (Debian `samba` + `winbind`) on loopback, for the `ldap`
 * adapter's Active Directory profile. Provisioning and seeding take a while, so the provisioned, seeded
 * directory is kept under the temp directory, keyed by Samba's version and the seed's version, and reused
 * by every later run. Samba's LDAP ports are fixed (389 and 636): a lock file (`lock.ts`) keeps runs from
 * overlapping. A relay on a free port in front of plain LDAP lets tests slow or drop the wire.
 */
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'ldapts';
import { seededPopulation } from '../population.js';
import type { ProviderPerson } from '../population.js';
import { startRelay } from '../ldap/index.js';
import type { LdapRelay } from '../ldap/index.js';
import { lockSamba } from './lock.js';
import type { SambaLock } from './lock.js';
import { AD_DOMAIN_DN, AD_PEOPLE_DN, AD_READER_DN, AD_REALM, UNUSUAL_PEOPLE, seedDirectory } from './seed.js';

const SAMBA = '/usr/sbin/samba';
const SAMBA_TOOL = '/usr/bin/samba-tool';
const WINBINDD = '/usr/sbin/winbindd';
/** Bumped whenever the seeded content changes, so an older cached directory is not reused. */
const SEED_VERSION = 1;
/** The DC's host name: the one its generated TLS certificate names. */
export const AD_HOST_NAME = `dc1.${AD_REALM.toLowerCase()}`;

/** Why Samba cannot run here (printed by callers that go without it), or undefined when it can. */
export function sambaMissing(): string | undefined {
  const missing = [SAMBA, SAMBA_TOOL, WINBINDD].filter((path) => !existsSync(path));
  return missing.length === 0
    ? undefined
    : `Samba AD DC is not installed (missing ${missing.join(', ')}; apt-get install samba winbind)`;
}

/** A running domain controller. */
export interface LocalSambaAd {
  /** `ldap://127.0.0.1:<relay port>`: plain LDAP through the relay. */
  readonly url: string;
  /** `ldap://127.0.0.1:389` (for StartTLS) and `ldaps://127.0.0.1:636`. */
  readonly directUrl: string;
  readonly ldapsUrl: string;
  /** The CA that signed the DC's certificate (Samba's generated `private/tls/ca.pem`). */
  readonly caPem: string;
  /** The name the DC's certificate carries (connect to 127.0.0.1, verify this name). */
  readonly tlsServerName: string;
  readonly domainDn: string;
  readonly baseDn: string;
  readonly bindDn: string;
  readonly bindPassword: string;
  readonly adminDn: string;
  readonly adminPassword: string;
  readonly people: readonly ProviderPerson[];
  readonly relay: LdapRelay;
  stop(): Promise<void>;
}

interface Secrets {
  readonly admin: string;
  readonly reader: string;
}

/** The seeded people: a few hundred (more than a page), ~10 % disabled, some non-ASCII names. */
export function adPopulation(): ProviderPerson[] {
  return [
    ...seededPopulation({ name: 'acme-ad', size: 320, overlap: 80, overlapOffset: 150 }),
    ...UNUSUAL_PEOPLE,
  ];
}

/** AD's default password policy wants three character classes. */
const password = () => `Aa1-${randomBytes(18).toString('base64url')}`;

function sambaVersion(): string {
  const run = spawnSync(SAMBA, ['--version'], { encoding: 'utf8' });
  return run.stdout.trim().replace(/[^A-Za-z0-9.-]/g, '_');
}

function provision(dir: string, adminPassword: string): void {
  const run = spawnSync(
    SAMBA_TOOL,
    [
      'domain',
      'provision',
      `--targetdir=${dir}`,
      `--realm=${AD_REALM}`,
      '--domain=ACME',
      '--server-role=dc',
      '--dns-backend=NONE',
      '--use-rfc2307',
      `--adminpass=${adminPassword}`,
      '--host-ip=127.0.0.1',
      `--host-name=${AD_HOST_NAME.split('.')[0] ?? 'dc1'}`,
    ],
    { encoding: 'utf8', timeout: 300_000 },
  );
  if (run.status !== 0) throw new Error(`samba-tool domain provision failed: ${run.stderr.slice(-500)}`);
}

/** Only LDAP on loopback; plain LDAP binds allowed so the relay (and StartTLS) can be tested. */
async function configure(dir: string): Promise<void> {
  const path = join(dir, 'etc', 'smb.conf');
  const conf = (await readFile(path, 'utf8'))
    .replace(/^\s*server services = .*$/m, '\tserver services = ldap cldap')
    .replace(/^\s*log file = .*$/m, `\tlog file = ${dir}/log.%m`)
    .replace(
      /^\[global\]$/m,
      `[global]\n\tinterfaces = lo\n\tbind interfaces only = yes\n\tldap server require strong auth = no\n\tpid directory = ${dir}`,
    );
  await writeFile(path, conf, { mode: 0o600 });
}

async function waitForBind(url: string, dn: string, secret: string, child: ChildProcess, ms: number) {
  const until = Date.now() + ms;
  let last: unknown;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`samba exited with ${child.exitCode}`);
    const client = new Client({ url, timeout: 5000, connectTimeout: 2000 });
    try {
      await client.bind(dn, secret);
      return;
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }
  throw new Error(`samba did not answer a bind in time (${String(last)})`);
}

/** Stops a Samba left running by an earlier run that died holding the (now stale) lock. */
function stopLeftover(dir: string): void {
  const pidFile = join(dir, 'samba.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (Number.isSafeInteger(pid) && pid > 0)
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
}

function spawnSamba(dir: string): ChildProcess {
  return spawn(SAMBA, ['-s', join(dir, 'etc', 'smb.conf'), '-i', '-M', 'single'], {
    stdio: ['ignore', 'ignore', 'ignore'],
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await Promise.race([once(child, 'exit'), new Promise((resolve) => setTimeout(resolve, 5000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Provisions and seeds a fresh directory in `dir`, leaving `secrets.json` as the mark that it is whole. */
async function build(dir: string, people: readonly ProviderPerson[]): Promise<Secrets> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const secrets: Secrets = { admin: password(), reader: password() };
  provision(dir, secrets.admin);
  await configure(dir);
  const child = spawnSamba(dir);
  try {
    // The first start generates the TLS keys before it listens.
    await waitForBind('ldap://127.0.0.1:389', `Administrator@${AD_REALM}`, secrets.admin, child, 120_000);
    const client = new Client({
      url: 'ldaps://127.0.0.1:636',
      timeout: 30_000,
      tlsOptions: { ca: await readFile(join(dir, 'private', 'tls', 'ca.pem')), servername: AD_HOST_NAME },
    });
    try {
      await client.bind(`Administrator@${AD_REALM}`, secrets.admin);
      await seedDirectory(client, people, { reader: secrets.reader, people: password() });
    } finally {
      await client.unbind().catch(() => undefined);
    }
  } finally {
    await stopChild(child);
  }
  await writeFile(join(dir, 'secrets.json'), JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}

/** The cached directory for this Samba and seed. */
export function sambaCacheDir(): string {
  return join(tmpdir(), 'bos-samba-ad', `${sambaVersion()}-seed${SEED_VERSION}`);
}

/**
 * Starts the DC, provisioning and seeding it first when no cached directory exists. Takes the lock (or
 * uses `lock` already taken); throws with the reason when Samba is missing or another run holds it.
 */
export async function startSambaAd(options: { lock?: SambaLock } = {}): Promise<LocalSambaAd> {
  const missing = sambaMissing();
  if (missing !== undefined) throw new Error(missing);
  const lock = options.lock ?? lockSamba();
  if (typeof lock === 'string') throw new Error(lock);
  const people = adPopulation();
  const dir = sambaCacheDir();
  let child: ChildProcess | undefined;
  let relay: LdapRelay | undefined;
  const stop = async () => {
    await relay?.close();
    if (child !== undefined) await stopChild(child);
    lock.release();
  };
  try {
    stopLeftover(dir);
    const secretsFile = join(dir, 'secrets.json');
    const secrets: Secrets = existsSync(secretsFile)
      ? (JSON.parse(await readFile(secretsFile, 'utf8')) as Secrets)
      : await build(dir, people);
    child = spawnSamba(dir);
    await waitForBind('ldap://127.0.0.1:389', AD_READER_DN, secrets.reader, child, 60_000);
    relay = await startRelay(389);
    return {
      url: `ldap://127.0.0.1:${relay.port}`,
      directUrl: 'ldap://127.0.0.1:389',
      ldapsUrl: 'ldaps://127.0.0.1:636',
      caPem: await readFile(join(dir, 'private', 'tls', 'ca.pem'), 'utf8'),
      tlsServerName: AD_HOST_NAME,
      domainDn: AD_DOMAIN_DN,
      baseDn: AD_PEOPLE_DN,
      bindDn: AD_READER_DN,
      bindPassword: secrets.reader,
      adminDn: `CN=Administrator,CN=Users,${AD_DOMAIN_DN}`,
      adminPassword: secrets.admin,
      people,
      relay,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
