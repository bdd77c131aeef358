// Key files: JSON `{"public_key": "ed0120…", "private_key": "802620…"}` in the text forms of
// keys.ts. Saving is atomic (write a temporary file with mode 0600, fsync, rename over the target,
// fsync the directory) so a crash leaves either the old file or the new one, never half of one.
// Loading checks that the public key matches the private one, so a hand-edited file cannot make
// the node announce a key it cannot sign for. Errors name the file but never print its content.
import { open, readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../util/atomic-file.js';
import { CryptoError } from './errors.js';
import { isKeyTextError, publicKeyEquals, publicKeyFromText } from './keys.js';
import { Ed25519KeyPair } from './signer.js';

/** A key file is two short strings; anything bigger is not one of ours. */
export const KEY_FILE_BYTES_MAX = 4096;
const KEY_FILE_MODE = 0o600;
const KEY_FILE_FIELDS = ['public_key', 'private_key'] as const;

export async function saveKeyFile(path: string, kp: Ed25519KeyPair): Promise<void> {
  const body = `${JSON.stringify({ public_key: kp.publicKeyText(), private_key: kp.privateKeyText() }, null, 2)}\n`;
  try {
    await writeFileAtomic(path, body, KEY_FILE_MODE);
  } catch (cause) {
    throw new CryptoError('key_file_unwritable', `cannot write key file ${path}: ${describe(cause)}`, {
      cause,
    });
  }
}

export async function loadKeyFile(path: string): Promise<Ed25519KeyPair> {
  let text: string;
  try {
    text = await readLimited(path);
  } catch (cause) {
    if (cause instanceof CryptoError) throw cause;
    throw new CryptoError('key_file_unreadable', `cannot read key file ${path}: ${describe(cause)}`, {
      cause,
    });
  }
  const invalid = (why: string) => new CryptoError('key_file_invalid', `key file ${path}: ${why}`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw invalid('not valid JSON');
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw invalid('expected a JSON object');
  const fields = doc as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((k) => !(KEY_FILE_FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0) throw invalid(`unknown field(s) ${unknown.join(', ')}`);
  const publicText = fields['public_key'];
  const privateText = fields['private_key'];
  if (typeof publicText !== 'string') throw invalid('"public_key" must be a string');
  if (typeof privateText !== 'string') throw invalid('"private_key" must be a string');
  const publicKey = publicKeyFromText(publicText);
  if (isKeyTextError(publicKey)) throw invalid(`"public_key": ${publicKey.message}`);
  let kp: Ed25519KeyPair;
  try {
    kp = Ed25519KeyPair.fromPrivateText(privateText);
  } catch (e) {
    throw invalid(`"private_key": ${describe(e)}`);
  }
  if (!publicKeyEquals(publicKey, kp.publicKey)) throw invalid('"public_key" does not match "private_key"');
  return kp;
}

async function readLimited(path: string): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    if (size > KEY_FILE_BYTES_MAX) {
      throw new CryptoError('key_file_invalid', `key file ${path}: larger than ${KEY_FILE_BYTES_MAX} bytes`);
    }
    return await readFile(fh, 'utf8');
  } finally {
    await fh.close();
  }
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
