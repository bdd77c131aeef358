// `torana keys validator`: this node's validator entry (peer id, BLS key, proof of possession) from the
// key files in --dir, for a genesis `validators` entry or `torana peer register`. Its own module: it
// loads the BLS library, which client commands never need.

import { blsProvePossession } from '../crypto/bls.js';
import { loadKeyFile } from '../crypto/keyfile.js';
import { publicKeyToText } from '../crypto/keys.js';
import { loadConsensusKey } from '../node/consensus-key.js';
import { nodeFiles } from '../node/files.js';
import { toHex } from '../util/hex.js';
import { printJson, printRecord } from './output.js';

export async function keysValidator(flags: { dir: string; json?: boolean }): Promise<void> {
  const files = nodeFiles(flags.dir);
  const nodeKey = await loadKeyFile(files.nodeKey);
  const consensusKey = await loadConsensusKey(files.consensusKey);
  const out = {
    peer: nodeKey.publicKeyText(),
    bls_key: publicKeyToText(consensusKey.publicKey),
    pop: toHex(blsProvePossession(consensusKey)),
  };
  if (flags.json) printJson(out);
  else printRecord(out);
}
