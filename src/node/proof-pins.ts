// The proof pins of a node's state tree, kept in `data/proof-pins.json` (written atomically on every
// change) so a restart, and `torana rebuild`, keep them (pipeline/proof-retention.ts; docs/ledger-proofs.md
// "Retention and pins"). The file is node-local, like the pins.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ProofPin, ProofRetention } from '../pipeline/proof-retention.js';
import { writeFileAtomic } from '../util/atomic-file.js';

export const PROOF_PINS_FILE = 'proof-pins.json';

function parsePins(text: string, path: string): ProofPin[] {
  const doc = JSON.parse(text) as { pins?: unknown };
  const pins = Array.isArray(doc.pins) ? doc.pins : undefined;
  const ok = (p: unknown): p is ProofPin =>
    typeof p === 'object' &&
    p !== null &&
    Number.isSafeInteger((p as ProofPin).height) &&
    (p as ProofPin).height >= 1 &&
    typeof (p as ProofPin).complete === 'boolean';
  if (pins === undefined || !pins.every(ok)) throw new Error(`${path}: not a proof pin list`);
  if (new Set(pins.map((p) => p.height)).size !== pins.length)
    throw new Error(`${path}: a height pinned twice`);
  return pins.map((p) => ({ height: p.height, complete: p.complete }));
}

/** The retention of the node whose data directory is `dataDir`, with the pins its file records. */
export async function loadProofPins(dataDir: string): Promise<ProofRetention> {
  const path = join(dataDir, PROOF_PINS_FILE);
  let text: string | undefined;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const pins = text === undefined ? [] : parsePins(text, path);
  return new ProofRetention(pins, (list) =>
    writeFileAtomic(path, `${JSON.stringify({ pins: list }, null, 2)}\n`),
  );
}
