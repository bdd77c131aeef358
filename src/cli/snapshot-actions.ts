// The code of `torana snapshot create | verify | restore` (declared in snapshot-commands.ts).

import { join } from 'node:path';
import { nodeFiles } from '../node/files.js';
import { GenesisError } from '../node/genesis.js';
import { loadNodeConfig } from '../node/load-config.js';
import { createSnapshot } from '../node/snapshot-create.js';
import { SnapshotError } from '../node/snapshot-format.js';
import { restoreSnapshot } from '../node/snapshot-restore.js';
import { loadTrust, type VerifiedSnapshot, verifySnapshot } from '../node/snapshot-verify.js';
import { CliError } from './errors.js';

function asCliError(e: unknown): unknown {
  if (e instanceof SnapshotError) return new CliError(e.code, e.message);
  if (e instanceof GenesisError) return new CliError('genesis_invalid', e.message);
  return e;
}

function progressOf(json: boolean | undefined): (line: string) => void {
  return (line) => {
    if (!json) process.stderr.write(`${line}\n`);
  };
}

function say(json: boolean | undefined, doc: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(doc)}\n` : text);
}

function summary(v: VerifiedSnapshot) {
  return {
    chain_id: v.manifest.chain_id,
    height: v.manifest.height,
    block_hash: v.manifest.block_hash,
    state_root: v.manifest.state_root,
    rows: v.rows,
    validator_set_hash: v.validatorSetHash,
    signers: v.signers,
  };
}

export async function snapshotCreate(flags: {
  dir: string;
  out: string;
  height?: string;
  config?: string;
  json?: boolean;
}) {
  const config = await loadNodeConfig({ dir: flags.dir, configFile: flags.config, env: process.env });
  const t0 = performance.now();
  try {
    const r = await createSnapshot(flags.dir, flags.out, config.node.chainId, {
      ...(flags.height === undefined ? {} : { height: Number(flags.height) }),
      progress: progressOf(flags.json),
    });
    const ms = Math.round(performance.now() - t0);
    say(
      flags.json,
      {
        out: flags.out,
        chain_id: r.manifest.chain_id,
        height: r.manifest.height,
        rows: r.end.rows,
        bytes: r.bytes,
        duration_ms: ms,
      },
      `snapshot of ${r.manifest.chain_id} at height ${r.manifest.height} in ${flags.out}: ${r.end.rows} rows, ${(r.bytes / 1048576).toFixed(1)} MiB in ${(ms / 1000).toFixed(1)} s\n`,
    );
  } catch (e) {
    throw asCliError(e);
  }
}

export async function snapshotVerify(flags: {
  file: string;
  genesis: string;
  trustValidatorSet?: string[];
  json?: boolean;
}) {
  try {
    const trust = await loadTrust(flags.genesis, flags.trustValidatorSet ?? []);
    const v = await verifySnapshot(flags.file, trust, { progress: progressOf(flags.json) });
    say(
      flags.json,
      { file: flags.file, ok: true, ...summary(v) },
      `snapshot ${flags.file} verifies: ${v.manifest.chain_id} at height ${v.manifest.height}, ${v.rows} rows give the certified state root, ${v.signers} validators signed\n`,
    );
  } catch (e) {
    throw asCliError(e);
  }
}

export async function snapshotRestore(flags: {
  file: string;
  dir: string;
  genesis?: string;
  trustValidatorSet?: string[];
  json?: boolean;
}) {
  try {
    const trust = await loadTrust(
      flags.genesis ?? join(nodeFiles(flags.dir).dir, 'genesis.json'),
      flags.trustValidatorSet ?? [],
    );
    const v = await restoreSnapshot(flags.file, flags.dir, trust, { progress: progressOf(flags.json) });
    say(
      flags.json,
      { dir: flags.dir, ...summary(v) },
      `restored ${v.manifest.chain_id} at height ${v.manifest.height} into ${flags.dir} (${v.rows} rows)\nnext: torana start --dir ${flags.dir} (block sync from height ${v.manifest.height + 1})\n`,
    );
  } catch (e) {
    throw asCliError(e);
  }
}
