// `torana keys generate`: its own module, so that it loads the signer only (no SDK, no codec schema).

import { Ed25519KeyPair } from '../crypto/signer.js';
import { printJson, printRecord } from './output.js';

export function keysGenerate(flags: { json?: boolean }): void {
  const kp = Ed25519KeyPair.generate();
  const out = { public_key: kp.publicKeyText(), private_key: kp.privateKeyText() };
  if (flags.json) printJson(out);
  else printRecord(out);
}
