/**
 * Samba AD DC for `npm start`: started when it can run here, with one log line saying that the `acme-ad`
 * source was added, or why it was left out. The first start provisions and seeds the cached directory
 * (about a minute and a half); later starts reuse it and take a few seconds.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { log } from '../../log.js';
import { lockSamba } from './lock.js';
import { sambaCacheDir, sambaMissing, startSambaAd } from './samba.js';
import type { LocalSambaAd } from './samba.js';

const LEFT_OUT = 'Active Directory source acme-ad left out';

/** The running DC, or undefined (after the log line that says why). */
export async function startAdDemo(): Promise<LocalSambaAd | undefined> {
  const missing = sambaMissing();
  if (missing !== undefined) {
    log('warn', `${LEFT_OUT}: ${missing}`);
    return undefined;
  }
  const lock = lockSamba();
  if (typeof lock === 'string') {
    log('warn', `${LEFT_OUT}: ${lock}`);
    return undefined;
  }
  const cached = existsSync(join(sambaCacheDir(), 'secrets.json'));
  try {
    const ad = await startSambaAd({ lock });
    log('info', `Active Directory source acme-ad added: Samba AD DC on ${ad.ldapsUrl}`, {
      people: ad.people.length,
      provisioned: cached ? 'reused' : 'now (kept for later starts)',
    });
    return ad;
  } catch (error) {
    lock.release();
    log('warn', `${LEFT_OUT}: Samba AD DC did not start`, {
      error: error instanceof Error ? error.message.slice(0, 300) : String(error),
    });
    return undefined;
  }
}
