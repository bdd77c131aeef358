// The address file of a running node, `<dir>/node.json` {url, pid, started} (a CLI given
// only `--dir D` must find the node started in D, whatever `--port` it was given). `torana start`
// writes it once the gateway listens (write + rename, so a reader never sees half a file) and
// removes it on a clean stop; after a crash the file stays, and readers treat it as stale because
// its pid is no longer alive.

import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export interface NodeAddress {
  url: string;
  pid: number;
  started: string;
}

export type FoundAddress =
  | { state: 'running'; address: NodeAddress; file: string }
  | { state: 'stale'; address: NodeAddress; file: string }
  | { state: 'none'; file: string };

export function nodeAddressFile(dir: string): string {
  return join(resolve(dir), 'node.json');
}

export async function saveNodeAddress(dir: string, url: string): Promise<NodeAddress> {
  const file = nodeAddressFile(dir);
  const address: NodeAddress = { url, pid: process.pid, started: new Date().toISOString() };
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(address)}\n`, { mode: 0o644 });
  await rename(tmp, file);
  return address;
}

/** Removes the file if this process wrote it (a second node may have replaced it since). */
export async function removeNodeAddress(dir: string): Promise<void> {
  const found = await findNodeAddress(dir);
  if (found.state !== 'none' && found.address.pid === process.pid) await rm(found.file, { force: true });
}

/** True while a process with this pid exists (EPERM: it exists but belongs to another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parse(text: string): NodeAddress | undefined {
  try {
    const v = JSON.parse(text) as Partial<NodeAddress>;
    if (typeof v.url !== 'string' || !/^https?:\/\//.test(v.url)) return undefined;
    if (!Number.isSafeInteger(v.pid) || (v.pid ?? 0) <= 0) return undefined;
    return { url: v.url, pid: v.pid as number, started: String(v.started ?? '') };
  } catch {
    return undefined;
  }
}

export async function findNodeAddress(dir: string): Promise<FoundAddress> {
  const file = nodeAddressFile(dir);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const address = text === undefined ? undefined : parse(text);
  if (address === undefined) return { state: 'none', file };
  return { state: isAlive(address.pid) ? 'running' : 'stale', address, file };
}
