/**
 * The TCP sockets a process tree listens on, from `ss -ltnpH` (iproute2), for tests that check every
 * listener of the local stack is on loopback.
 */
import { execFileSync } from 'node:child_process';

/** One listening socket: its local address (as `ss` prints it), port and owning process. */
export interface Listener {
  address: string;
  port: number;
  pid: number;
  command: string;
}

/** `pid` and every process below it. */
export function processTree(pid: number): Set<number> {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const tree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [child, parent] of rows) {
      if (tree.has(parent) && !tree.has(child)) {
        tree.add(child);
        grew = true;
      }
    }
  }
  return tree;
}

/** Listening TCP sockets owned by any of `pids`. */
export function listenersOf(pids: ReadonlySet<number>): Listener[] {
  const out = execFileSync('ss', ['-ltnpH'], { encoding: 'utf8' });
  const found: Listener[] = [];
  for (const line of out.split('\n')) {
    const local = line.trim().split(/\s+/)[3];
    if (local === undefined) continue;
    const cut = local.lastIndexOf(':');
    for (const [, command, pid] of line.matchAll(/\("([^"]+)",pid=(\d+),/g)) {
      if (pids.has(Number(pid)))
        found.push({
          address: local.slice(0, cut),
          port: Number(local.slice(cut + 1)),
          pid: Number(pid),
          command: command ?? '',
        });
    }
  }
  return found;
}

/** Whether `address` (as `ss` prints it) is a loopback address. */
export function isLoopback(address: string): boolean {
  return /^(?:127\.\d+\.\d+\.\d+|\[::1\]|\[::ffff:127\.\d+\.\d+\.\d+\])(?:%lo)?$/.test(address);
}
