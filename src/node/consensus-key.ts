// The node's BLS12-381 consensus key file: `{ public_key: 'ea0130…', private_key: '892620…' }`, mode 0600.

import { readFile } from 'node:fs/promises';
import { BlsKeyPair } from '../crypto/bls.js';
import { isKeyTextError, privateKeyFromText, privateKeyToText, publicKeyToText } from '../crypto/keys.js';
import { writeFileAtomic } from '../util/atomic-file.js';

export async function saveConsensusKey(path: string, kp: BlsKeyPair): Promise<void> {
  const body = {
    public_key: publicKeyToText(kp.publicKey),
    private_key: privateKeyToText({ algorithm: 'bls12_381', bytes: kp.secretBytes() }),
  };
  await writeFileAtomic(path, `${JSON.stringify(body, null, 2)}\n`, 0o600);
}

export async function loadConsensusKey(path: string): Promise<BlsKeyPair> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read consensus key file ${path}: ${(e as Error).message}`);
  }
  const text = (parsed as { private_key?: unknown } | null)?.private_key;
  const k = typeof text === 'string' ? privateKeyFromText(text) : undefined;
  if (k === undefined || isKeyTextError(k) || k.algorithm !== 'bls12_381') {
    throw new Error(`consensus key file ${path}: private_key is not a BLS12-381 private key`);
  }
  return BlsKeyPair.fromSecretBytes(k.bytes);
}
