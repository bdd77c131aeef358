// Node commands: `torana init`, `torana start`, `torana verify`, `torana rebuild` (README "Running a node").

import { access, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { ValidatorSet } from '../consensus/validator-set.js';
import { VerifyPool } from '../crypto/verify-pool.js';
import { DEFAULT_NODE_DIR, nodeFiles } from '../node/files.js';
import { loadGenesis } from '../node/genesis.js';
import { initNodeDir } from '../node/init.js';
import { loadNodeConfig } from '../node/load-config.js';
import { Node } from '../node/node.js';
import { serveNode } from '../node/serve.js';
import { verifyChain } from '../node/verify-chain.js';
import { Ledger } from '../pipeline/ledger.js';

interface StartFlags {
  dir: string;
  port?: string;
  profile?: string;
  config?: string;
  iso20022?: boolean;
}

function overridesOf(flags: StartFlags): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (flags.port !== undefined) o['gateway.port'] = flags.port;
  if (flags.profile !== undefined) o['telemetry.profile'] = flags.profile;
  if (flags.iso20022) o['iso20022.enabled'] = true;
  return o;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export function registerNodeCommands(program: Command): void {
  program
    .command('init')
    .description('write a local single-peer setup: config, keys, dev genesis, client settings')
    .option('--dir <dir>', 'node directory', DEFAULT_NODE_DIR)
    .option('--port <port>', 'gateway port written into the configuration')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', '\nExample:\n  torana init --dir ./.torana\n')
    .action(async (flags: { dir: string; port?: string; json?: boolean }) => {
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
    });

  program
    .command('start')
    .description('start the node (initialising the directory on first run)')
    .option('--dir <dir>', 'node directory', DEFAULT_NODE_DIR)
    .option('--port <port>', 'gateway port (overrides gateway.port)')
    .option('--profile <profile>', 'telemetry profile: disabled, operator, extended, developer, full')
    .option('--config <file>', 'configuration file instead of <dir>/config.toml')
    .option('--iso20022', 'enable the ISO 20022 bridge')
    .addHelpText(
      'after',
      '\nExamples:\n  torana start\n  torana start --dir /var/lib/torana --port 9000 --profile operator\n',
    )
    .action(async (flags: StartFlags) => {
      const files = nodeFiles(flags.dir);
      if (flags.config === undefined && !(await exists(files.config))) {
        const r = await initNodeDir({
          dir: flags.dir,
          overrides: flags.port ? { 'gateway.port': flags.port } : {},
        });
        process.stdout.write(`initialised ${r.dir} (admin account ${r.adminAccount})\n`);
      }
      const config = await loadNodeConfig({
        dir: flags.dir,
        configFile: flags.config,
        env: process.env,
        overrides: overridesOf(flags),
      });
      const node = await Node.start({
        dir: flags.dir,
        config,
        onFatal: (e) => {
          process.stderr.write(`fatal: ${(e as Error).stack ?? e}\n`);
          process.exitCode = 70;
        },
      });
      const server = await serveNode(node, { dir: flags.dir });
      process.stdout.write(
        `torana node listening on ${server.url} (height ${node.ledger.height()}, chain ${config.node.chainId})\n`,
      );
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      process.stdout.write('stopping…\n');
      await server.close();
      await node.stop();
    });

  program
    .command('verify')
    .description('re-verify the whole chain from the block log and compare with the persisted state')
    .option('--dir <dir>', 'node directory', DEFAULT_NODE_DIR)
    .option('--config <file>', 'configuration file instead of <dir>/config.toml')
    .option('--json', 'print the report as JSON')
    .action(async (flags: { dir: string; config?: string; json?: boolean }) => {
      const report = await verifyAndCompare(flags.dir, flags.config, !flags.json);
      if (flags.json) process.stdout.write(`${JSON.stringify(report)}\n`);
      else {
        process.stdout.write(
          `verified ${report.height} blocks, ${report.transactions} transactions in ${(report.duration_ms / 1000).toFixed(1)} s\n` +
            `  state root from blocks: ${report.rebuilt_state_root}\n  persisted state root:   ${report.persisted_state_root}\n  ${report.match ? 'MATCH' : 'MISMATCH'}\n`,
        );
      }
      if (!report.match) process.exitCode = 2;
    });

  program
    .command('rebuild')
    .description('delete the persisted world state and rebuild it by replaying every block')
    .option('--dir <dir>', 'node directory', DEFAULT_NODE_DIR)
    .option('--config <file>', 'configuration file instead of <dir>/config.toml')
    .action(async (flags: { dir: string; config?: string }) => {
      const config = await loadNodeConfig({ dir: flags.dir, configFile: flags.config, env: process.env });
      const data = nodeFiles(flags.dir).data;
      await rm(join(data, 'state'), { recursive: true, force: true });
      const t0 = performance.now();
      const { ledger, report } = await openLedger(data, config);
      const root = Buffer.from(ledger.state.stateRoot()).toString('hex');
      await ledger.close();
      process.stdout.write(
        `rebuilt state from ${report.replayedBlocks} blocks in ${((performance.now() - t0) / 1000).toFixed(1)} s; state root ${root}\n`,
      );
    });
}

async function openLedger(data: string, config: Awaited<ReturnType<typeof loadNodeConfig>>) {
  return Ledger.open({
    dir: data,
    chainId: config.node.chainId,
    fsync: config.storage.fsync,
    segmentBytesMax: config.storage.segmentBytesMax,
    lmdbMapBytes: config.storage.lmdbMapBytes,
    decodeLimits: {
      bytesMax: config.codec.bytesMax,
      itemsMax: config.codec.sequenceItemsMax,
      depthMax: config.codec.depthMax,
    },
  });
}

async function verifyAndCompare(dir: string, configFile: string | undefined, progress: boolean) {
  const config = await loadNodeConfig({ dir, configFile, env: process.env });
  const files = nodeFiles(dir);
  const genesis = await loadGenesis(join(files.dir, config.node.genesisFile), config.node.chainId);
  const pool = new VerifyPool({ threads: Math.max(1, config.verify.threads) });
  try {
    const rebuilt = await verifyChain({
      dir: files.data,
      chainId: config.node.chainId,
      validatorSet: new ValidatorSet(genesis.validators),
      decodeLimits: {
        bytesMax: config.codec.bytesMax,
        itemsMax: config.codec.sequenceItemsMax,
        depthMax: config.codec.depthMax,
      },
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
  }
}
