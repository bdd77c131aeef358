// Shared by the examples: where the node is and who signs, from the environment or ./.torana.

import { readFileSync } from 'node:fs';
import { importKeyPair, ToranaClient } from 'torana/sdk';

function fromDir(file: string): Record<string, string> {
  try {
    return JSON.parse(readFileSync(`.torana/${file}`, 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

export function clientFromEnv(): ToranaClient {
  const url = process.env.LEDGER_URL ?? fromDir('client.json').url ?? 'http://127.0.0.1:8080';
  const account = process.env.LEDGER_ACCOUNT ?? fromDir('client.json').account;
  const keyText = process.env.LEDGER_KEY ?? fromDir('admin.key.json').private_key;
  if (account === undefined || keyText === undefined)
    throw new Error('set LEDGER_ACCOUNT and LEDGER_KEY, or run `npm start` first');
  return new ToranaClient({ url, account, signer: importKeyPair(keyText) });
}
