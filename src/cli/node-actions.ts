// The code of `torana init`, `start`, `verify` and `rebuild` (declared in node-commands.ts). Imported
// only when one of them runs: it loads the whole node (storage, gateway, native crypto).

import { access, readdir, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { validatorSetAt } from '../consensus/membership.js';
import { ValidatorSet } from '../consensus/validator-set.js';
import { VERIFY_THREADS_MAX, VerifyPool } from '../crypto/verify-pool.js';
import { installAccountTexts } from '../model/account-texts.js';
import { runsBft } from '../node/bft.js';
import { nodeFiles } from '../node/files.js';
import { genesisRoster, loadGenesis } from '../node/genesis.js';
import { openImportedState } from '../node/genesis-import-state.js';
import { initNodeDir } from '../node/init.js';
import { decodeLimitsOf, loadNodeConfig } from '../node/load-config.js';
import { Node } from '../node/node.js';
import { loadProofPins } from '../node/proof-pins.js';
import { serveNode } from '../node/serve.js';
import { SnapshotError } from '../node/snapshot-format.js';
import { restoreSnapshot } from '../node/snapshot-restore.js';
import { loadTrust } from '../node/snapshot-verify.js';
import { verifyChain } from '../node/verify-chain.js';
import { Ledger } from '../pipeline/ledger.js';
import { CliError } from './errors.js';
import { findNodeAddress, removeNodeAddress, saveNodeAddress } from './node-address.js';
import { startSwitchOverrides } from './node-commands.js';

export interface StartFlags {
  dir: string;
  port?: string;
  profile?: string;
  config?: string;
  /** A state snapshot to start from when the data directory is empty (docs/design/snapshots.md). */
  fromSnapshot?: string;
  json?: boolean;
}

function overridesOf(flags: StartFlags): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (flags.port !== undefined) o['gateway.port'] = flags.port;
  if (flags.profile !== undefined) o['telemetry.profile'] = flags.profile;
  // The switches the modules added to `start` (node-commands.ts addStartSwitch).
  return { ...o, ...startSwitchOverrides(flags as unknown as Record<string, unknown>) };
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export async function init(flags: { dir: string; port?: string; json?: boolean }): Promise<void> {
  const r = await initNodeDir({
    dir: flags.dir,
    overrides: flags.port ? { 'gateway.port': flags.port } : {},
  });
  if (flags.json)
    process.stdout.write(
      `${JSON.stringify({ created: r.created, dir: r.dir, admin_account: r.adminAccount, url: r.url })}\n`,
    );
  else if (r.created)
    process.stdout.write(
      `initialised ${r.dir}\n  admin account: ${r.adminAccount}\n  gateway:       ${r.url}\n`,
    );
  else process.stdout.write(`${r.dir} is already initialised (config.toml exists); nothing written\n`);
}

export async function start(flags: StartFlags): Promise<void> {
  const files = nodeFiles(flags.dir);
  const running = await findNodeAddress(flags.dir);
  if (running.state === 'running' && running.address.pid !== process.pid)
    throw new CliError(
      'node_running',
      `a node is already running in ${files.dir} (pid ${running.address.pid}, ${running.address.url})`,
    );
  if (flags.config === undefined && !(await exists(files.config))) {
    const r = await initNodeDir({
      dir: flags.dir,
      overrides: flags.port ? { 'gateway.port': flags.port } : {},
    });
    if (!flags.json) process.stdout.write(`initialised ${r.dir} (admin account ${r.adminAccount})\n`);
  }
  const config = await loadNodeConfig({
    dir: flags.dir,
    configFile: flags.config,
    env: process.env,
    overrides: overridesOf(flags),
  });
  if (flags.fromSnapshot !== undefined) await startFromSnapshot(flags, config);
  const node = await Node.start({
    dir: flags.dir,
    config,
    onFatal: (e) => {
      process.stderr.write(`fatal: ${(e as Error).stack ?? e}\n`);
      process.exitCode = 70;
    },
  });
  const server = await serveNode(node, { dir: flags.dir });
  // Written once the gateway listens, so a CLI that finds it can connect (node-address.ts).
  await saveNodeAddress(flags.dir, server.url);
  const height = node.ledger.height();
  if (flags.json)
    process.stdout.write(
      `${JSON.stringify({ url: server.url, pid: process.pid, height, chain_id: config.node.chainId })}\n`,
    );
  else
    process.stdout.write(
      `torana node listening on ${server.url} (height ${height}, chain ${config.node.chainId})\n`,
    );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  if (!flags.json) process.stdout.write('stopping…\n');
  await removeNodeAddress(flags.dir);
  await server.close();
  await node.stop();
}

/**
 * `start --from-snapshot`: restores the snapshot, checked against this node's own genesis, when the data
 * directory is empty; a directory that already holds data starts from it (the flag can stay in a service
 * definition across restarts).
 */
async function startFromSnapshot(flags: StartFlags, config: Awaited<ReturnType<typeof loadNodeConfig>>) {
  const files = nodeFiles(flags.dir);
  const entries = await readdir(files.data).catch(() => []);
  if (entries.length > 0) {
    if (!flags.json) process.stderr.write(`${files.data} holds data: --from-snapshot is not used\n`);
    return;
  }
  const trust = await loadTrust(join(files.dir, config.node.genesisFile));
  try {
    const v = await restoreSnapshot(flags.fromSnapshot!, flags.dir, trust, {
      fsync: config.storage.fsync,
      lmdbMapBytes: config.storage.lmdbMapBytes,
      progress: (line) => {
        if (!flags.json) process.stderr.write(`${line}\n`);
      },
    });
    if (!flags.json)
      process.stderr.write(
        `restored height ${v.manifest.height} from ${flags.fromSnapshot}; syncing the rest\n`,
      );
  } catch (e) {
    throw e instanceof SnapshotError ? new CliError(e.code, e.message) : e;
  }
}

export async function verify(flags: {
  dir: string;
  config?: string;
  json?: boolean;
  genesisImport?: string;
}): Promise<void> {
  const report = await verifyAndCompare(flags.dir, flags.config, !flags.json, flags.genesisImport);
  if (flags.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else {
    process.stdout.write(
      `verified ${report.height} blocks, ${report.transactions} transactions in ${(report.duration_ms / 1000).toFixed(1)} s\n` +
        `  state root from blocks: ${report.rebuilt_state_root}\n  persisted state root:   ${report.persisted_state_root}\n  ${report.match ? 'MATCH' : 'MISMATCH'}\n`,
    );
  }
  if (!report.match) process.exitCode = 2;
}

export async function rebuild(flags: { dir: string; config?: string; json?: boolean }): Promise<void> {
  const config = await loadNodeConfig({ dir: flags.dir, configFile: flags.config, env: process.env });
  const data = nodeFiles(flags.dir).data;
  await rm(join(data, 'state'), { recursive: true, force: true });
  const t0 = performance.now();
  const { ledger, report } = await openLedger(data, config);
  const root = Buffer.from(ledger.state.stateRoot()).toString('hex');
  await ledger.close();
  const ms = performance.now() - t0;
  if (flags.json)
    process.stdout.write(
      `${JSON.stringify({ replayed_blocks: report.replayedBlocks, duration_ms: Math.round(ms), state_root: root })}\n`,
    );
  else
    process.stdout.write(
      `rebuilt state from ${report.replayedBlocks} blocks in ${(ms / 1000).toFixed(1)} s; state root ${root}\n`,
    );
}

async function openLedger(data: string, config: Awaited<ReturnType<typeof loadNodeConfig>>) {
  // A rebuild reads the whole chain: with the node's codec paths, as Node.start does.
  installAccountTexts();
  return Ledger.open({
    dir: data,
    chainId: config.node.chainId,
    fsync: config.storage.fsync,
    segmentBytesMax: config.storage.segmentBytesMax,
    lmdbMapBytes: config.storage.lmdbMapBytes,
    readAhead: config.storage.readAhead,
    mapChunks: config.storage.mapChunks,
    stateTreeCacheNodes: config.storage.stateTreeCacheNodes,
    stateRowCacheRows: config.storage.stateRowCacheRows,
    stateTreeVersionsKept: config.storage.stateTreeVersionsKept,
    proofRetention: await loadProofPins(data),
    decodeLimits: decodeLimitsOf(config),
  });
}

async function verifyAndCompare(
  dir: string,
  configFile: string | undefined,
  progress: boolean,
  genesisImport: string | undefined,
) {
  const config = await loadNodeConfig({ dir, configFile, env: process.env });
  const files = nodeFiles(dir);
  const genesis = await loadGenesis(join(files.dir, config.node.genesisFile), config.node.chainId);
  // An offline check with the machine to itself: one worker per core (or more if configured), so the
  // signatures of the blocks ahead are checked on every core while this thread re-executes.
  const threads = Math.min(VERIFY_THREADS_MAX, Math.max(1, config.verify.threads, availableParallelism()));
  const pool = new VerifyPool({ threads });
  const roster = new ValidatorSet(genesisRoster(genesis));
  // The imported genesis state, imported again from the file into a scratch store beside the data.
  const imported =
    genesisImport === undefined
      ? undefined
      : await openImportedState(genesisImport, {
          authority: genesis.transaction.payload.authority,
          scratchDir: files.dir,
        });
  try {
    const rebuilt = await verifyChain({
      initialState: imported?.state,
      dir: files.data,
      chainId: config.node.chainId,
      validatorSet: roster,
      // A network's certificates are signed by the validator set of their height (membership).
      validatorSetAt: runsBft(config, roster) ? validatorSetAt : undefined,
      decodeLimits: decodeLimitsOf(config),
      verifySignatures: (items) => pool.verify(items),
      onProgress: progress
        ? (h, of) => {
            if (h % 1000 === 0 || h === of) process.stderr.write(`\rverifying block ${h}/${of}`);
            if (h === of) process.stderr.write('\n');
          }
        : undefined,
    });
    const { ledger } = await openLedger(files.data, config);
    const persisted = Buffer.from(ledger.state.stateRoot()).toString('hex');
    await ledger.close();
    return {
      height: rebuilt.height,
      transactions: rebuilt.transactions,
      duration_ms: Math.round(rebuilt.durationMs),
      rebuilt_state_root: rebuilt.stateRoot,
      persisted_state_root: persisted,
      match: persisted === rebuilt.stateRoot,
    };
  } finally {
    await pool.close();
    await imported?.close();
  }
}
