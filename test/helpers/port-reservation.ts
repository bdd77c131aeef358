// Base ports reserved across the test processes of this machine. Test networks pick a random base port
// below the ephemeral range (network.ts `freeBasePort`); two test files starting networks at once (the
// runner runs two files at a time, and other checkouts run their suites beside it) could pick the same
// base while neither had bound it yet, and a peer's gateway port was then answered by another test's
// node. A reservation is a directory per base under `<tmp>/torana-test-ports/`, made with mkdir (atomic:
// one process gets it), holding its owner's pid; one whose owner has exited is taken over.

import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PORT_RESERVATIONS_DIR = join(tmpdir(), 'torana-test-ports');

/** The reservations this process holds (folder/base): a base goes to one network of this process too. */
const held = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerOf(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(path, 'pid'), 'utf8'));
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reserves `base` for this process (true), or says it is taken (false): held by another live process,
 * or already by this one for another network. A reservation appears whole: a folder holding the pid is
 * renamed into place, which fails while another one is there. One of an exited process is taken over.
 */
export function reserveBase(base: number, dir = PORT_RESERVATIONS_DIR): boolean {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, String(base));
  if (held.has(path)) return false;
  for (let attempt = 0; attempt < 2; attempt++) {
    const owner = ownerOf(path);
    if (owner !== undefined) {
      if (alive(owner)) return false;
      // The owner exited: move its reservation away (one taker wins the rename), then take the base.
      const stale = `${path}.stale.${process.pid}`;
      try {
        renameSync(path, stale);
      } catch {
        return false;
      }
      // Another taker was faster and its fresh reservation is what moved: put it back.
      if (ownerOf(stale) !== owner) {
        try {
          renameSync(stale, path);
        } catch {
          rmSync(stale, { recursive: true, force: true });
        }
        return false;
      }
      rmSync(stale, { recursive: true, force: true });
    }
    const fresh = `${path}.new.${process.pid}`;
    mkdirSync(fresh, { recursive: true });
    writeFileSync(join(fresh, 'pid'), String(process.pid));
    try {
      renameSync(fresh, path);
      held.add(path);
      return true;
    } catch (e) {
      rmSync(fresh, { recursive: true, force: true });
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
    }
  }
  return false;
}

/** Gives `base` back, if this process holds it. */
export function releaseBase(base: number, dir = PORT_RESERVATIONS_DIR): void {
  const path = join(dir, String(base));
  if (!held.delete(path)) return;
  if (ownerOf(path) === process.pid) rmSync(path, { recursive: true, force: true });
}
