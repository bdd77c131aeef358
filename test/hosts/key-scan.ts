// Which private keys sit where: after a genesis ceremony every machine's directory must hold its own
// keys only, never another machine's private key nor the coordinator's genesis admin (or bridge) key.
// `secretsIn` reads the private keys of the key files of one directory; `foreignSecrets` scans every
// file under a machine's directory for a secret owned by another machine, in the forms a leak would
// take: the key file's text form, hex (either case), base64 and the raw bytes.

import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isKeyTextError, privateKeyFromText } from '../../src/crypto/keys.js';

/** The key files a node or admin directory may hold (src/node/files.ts). */
const KEY_FILES = [
  'node.key.json',
  'consensus.key.json',
  'admin.key.json',
  'bridge.key.json',
  'client.key.json',
];

/** Files larger than this are not read (a filler file; nothing the ceremony writes comes near). */
const SCAN_FILE_BYTES_MAX = 64 << 20;

export interface Secret {
  /** The machine whose directory the key was made in. */
  owner: string;
  /** Its key file's name. */
  what: string;
  text: string;
  bytes: Uint8Array;
}

export interface Leak {
  /** The file holding it, relative to the scanned directory. */
  file: string;
  owner: string;
  what: string;
  form: 'text' | 'hex' | 'HEX' | 'base64' | 'raw';
}

/** The private keys of the key files directly in `dir`, as `owner`'s. */
export async function secretsIn(owner: string, dir: string): Promise<Secret[]> {
  const out: Secret[] = [];
  for (const what of KEY_FILES) {
    const body = await readFile(join(dir, what), 'utf8').catch(() => undefined);
    if (body === undefined) continue;
    const text = (JSON.parse(body) as { private_key?: unknown }).private_key;
    if (typeof text !== 'string') throw new Error(`${join(dir, what)} has no private_key`);
    const key = privateKeyFromText(text);
    if (isKeyTextError(key)) throw new Error(`${join(dir, what)}: ${key.message}`);
    out.push({ owner, what, text, bytes: key.bytes });
  }
  return out;
}

async function filesUnder(dir: string, out: string[] = []): Promise<string[]> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await filesUnder(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** Every file under `root` that holds a secret of `secrets` not owned by `owner`. */
export async function foreignSecrets(
  root: string,
  owner: string,
  secrets: readonly Secret[],
): Promise<Leak[]> {
  const foreign = secrets.filter((s) => s.owner !== owner);
  const leaks: Leak[] = [];
  for (const file of await filesUnder(root)) {
    if ((await stat(file)).size > SCAN_FILE_BYTES_MAX) continue;
    const bytes = await readFile(file);
    const text = bytes.toString('latin1');
    for (const s of foreign) {
      const hex = Buffer.from(s.bytes).toString('hex');
      const forms: [Leak['form'], boolean][] = [
        ['text', text.includes(s.text)],
        ['hex', text.includes(hex)],
        ['HEX', text.includes(hex.toUpperCase())],
        ['base64', text.includes(Buffer.from(s.bytes).toString('base64').replace(/=+$/, ''))],
        ['raw', bytes.includes(Buffer.from(s.bytes))],
      ];
      const form = forms.find(([, hit]) => hit)?.[0];
      if (form !== undefined) leaks.push({ file: relative(root, file), owner: s.owner, what: s.what, form });
    }
  }
  return leaks;
}
