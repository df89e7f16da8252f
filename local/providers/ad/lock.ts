/**
 * One Samba at a time on this machine: its LDAP ports (389, 636) are fixed, so every run that starts it
 * (tests, `npm start`, benchmarks) first takes a lock file holding its process id. A lock whose process
 * is gone is stale and taken over; a live holder makes the caller go without Samba, saying why.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the lock lives (beside the cached directory). */
export const SAMBA_LOCK_PATH = join(tmpdir(), 'bos-samba-ad.lock');

/** A held lock. */
export interface SambaLock {
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock, or returns why it cannot (another live process holds it). */
export function lockSamba(path = SAMBA_LOCK_PATH): SambaLock | string {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let held = true;
      const release = () => {
        if (held) rmSync(path, { force: true });
        held = false;
      };
      process.once('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return `cannot take ${path}: ${String(error)}`;
      const holder = Number(readFileSync(path, 'utf8'));
      if (Number.isSafeInteger(holder) && holder > 0 && alive(holder))
        return `another run (pid ${holder}) is using Samba's fixed ports (lock ${path})`;
      rmSync(path, { force: true });
    }
  }
  return `cannot take ${path}`;
}

/** Takes the lock, waiting up to `waitMs` for another run to release it; else why it could not. */
export async function waitForSambaLock(waitMs: number, path = SAMBA_LOCK_PATH): Promise<SambaLock | string> {
  const until = Date.now() + waitMs;
  for (;;) {
    const lock = lockSamba(path);
    if (typeof lock !== 'string' || Date.now() >= until) return lock;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
