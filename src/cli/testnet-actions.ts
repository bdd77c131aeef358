// The code of `torana testnet init` and `torana testnet up` (declared in testnet-commands.ts).

import { loadTestnet, testnetToJson } from '../node/testnet-manifest.js';
import { CliError } from './errors.js';
import { superviseTestnet } from './testnet-up.js';

function wholeNumber(flag: string, text: string): number {
  if (!/^\d+$/.test(text))
    throw new CliError('invalid_argument', `${flag} expects a whole number, got "${text}"`, 2);
  return Number(text);
}

export async function testnetInit(flags: {
  dir: string;
  validators?: string;
  observers: string;
  basePort: string;
  chainId: string;
  hosts?: string;
  manifest?: string;
  adminDir?: string;
  json?: boolean;
}): Promise<void> {
  const { initTestnet } = await import('../node/testnet.js');
  const { readManifestPlan } = await import('../node/testnet-plan.js');
  if (flags.manifest !== undefined && (flags.validators !== undefined || flags.hosts !== undefined))
    throw new CliError(
      'invalid_argument',
      '--manifest names every peer: leave out --validators and --hosts',
      2,
    );
  if (flags.manifest === undefined && flags.validators === undefined)
    throw new CliError('invalid_argument', 'give --validators <n> (or --manifest <file>)', 2);
  const manifest = await initTestnet({
    dir: flags.dir,
    validators: flags.validators === undefined ? 0 : wholeNumber('--validators', flags.validators),
    observers: wholeNumber('--observers', flags.observers),
    basePort: wholeNumber('--base-port', flags.basePort),
    chainId: flags.chainId,
    ...(flags.hosts === undefined ? {} : { hosts: flags.hosts.split(',') }),
    ...(flags.manifest === undefined ? {} : { plan: await readManifestPlan(flags.manifest) }),
    ...(flags.adminDir === undefined ? {} : { adminDir: flags.adminDir }),
  });
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(testnetToJson(manifest))}\n`);
    return;
  }
  const lines = manifest.peers.map(
    (p) => `  peer-${p.index}  ${p.role.padEnd(9)}  ${p.gatewayUrl}  p2p ${p.p2pAddress}`,
  );
  process.stdout.write(
    `wrote a ${manifest.peers.length}-peer network (chain ${manifest.chainId}) into ${flags.dir}\n` +
      `${lines.join('\n')}\n  admin     ${manifest.adminDir} (admin and bridge keys: keep it off the peers' machines)\n` +
      (manifest.peers.every((p) => p.p2pAddress.startsWith('127.0.0.1:'))
        ? `start it with: torana testnet up --dir ${flags.dir}\n`
        : 'copy each peer-<i> directory to its host and run there: torana start --dir <peer directory>\n'),
  );
}

export async function testnetUp(flags: { dir: string; graceMs: string; json?: boolean }): Promise<void> {
  const manifest = await loadTestnet(flags.dir);
  // The first SIGINT/SIGTERM stops the peers gently; a second one kills those still running.
  let signals = 0;
  let stop: (s: NodeJS.Signals) => void = () => {};
  let force: () => void = () => {};
  const stopSignal = new Promise<NodeJS.Signals>((r) => (stop = r));
  const forceSignal = new Promise<void>((r) => (force = r));
  const onSignal = (s: NodeJS.Signals) => (++signals === 1 ? stop(s) : force());
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const code = await superviseTestnet({
    manifest,
    write: (line) => process.stdout.write(`${line}\n`),
    json: flags.json === true,
    graceMs: wholeNumber('--grace-ms', flags.graceMs),
    stopSignal,
    forceSignal,
  });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  process.exitCode = code;
}
