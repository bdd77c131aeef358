// A network on separate hosts (run by scripts/test-hosts.mjs, `npm run test:hosts`, never by `npm
// test`): each machine is a network namespace with its own address on one bridge, and this test runs on
// the client machine. The genesis ceremony is run as separate operators run it (keys made on each
// machine by the CLI, the coordinator combining the entries, each operator adopting by hash); no
// machine may then hold another's private key or the genesis admin key. Every validator runs `torana
// start` on its machine, listening on its own address; transfers go through the gateways while one
// validator is killed with kill -9 and restarted, then two are down at once (no quorum), one is cut off
// by taking its cable (veth) down, a fifth validator joins by RegisterPeer, the observer (joined from a
// snapshot one validator made while running, then block sync) runs out of disk and, freed and restarted,
// catches up. At the end: one chain, every
// acknowledged transfer committed, balances as the transfers make them, the total conserved. `torana
// status` is printed at each failure.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { renderConfigToml } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { loadKeyFile } from '../../src/crypto/keyfile.js';
import { nodeFiles } from '../../src/node/files.js';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { writeFileAtomic } from '../../src/util/atomic-file.js';
import { PeerProcess } from '../helpers/network-peer.js';
import { waitUntil } from '../helpers/network-scenario.js';
import { foreignSecrets, type Secret, secretsIn } from './key-scan.js';
import { type Machine, readPlan, runIn, toranaOk, toranaOn } from './machines.js';
import { INITIAL_BALANCE, Transfers } from './transfers.js';

const CHAIN = 'hosts-net';
const ASSET = 'coin#system';
/** The observer's data directory: a tmpfs this small fills up (the disk-full step). */
const OBSERVER_DISK = '32m';
/** Shorter view timeouts than the defaults (2 s to 30 s), so that recovery after an outage is quick. */
const NODE_ENV = { TORANA_CONSENSUS_VIEW_TIMEOUT_MAX_MS: '6000' };

const plan = readPlan();
const machine = (name: string): Machine => {
  const m = plan.machines.find((x) => x.name === name);
  if (m === undefined) throw new Error(`no machine ${name}`);
  return m;
};
const client = machine('client');
const genesisValidators = ['v0', 'v1', 'v2', 'v3'].map(machine);
const fifth = machine('v4');
const observer = machine('obs');
const adminKeyFile = join(client.home, 'admin', 'admin.key.json');

const peers = new Map<string, PeerProcess>();
const peer = (m: Machine): PeerProcess => {
  const p = peers.get(m.name);
  if (p === undefined) throw new Error(`${m.name} was never started`);
  return p;
};
let genesisHash = '';
let authority = '';
let transfers: Transfers | undefined;
let failed = false;
const started = Date.now();

function say(line: string): void {
  process.stdout.write(`# [${((Date.now() - started) / 1000).toFixed(0)} s] ${line}\n`);
}

/** `torana status` run on machine `on` against `target`'s gateway, printed under `title`. */
async function captureStatus(title: string, on: Machine, target: Machine = on): Promise<string> {
  const r = await toranaOn(on, ['status', '--url', target.url]);
  const text = `${r.out}${r.err}`.trimEnd();
  process.stdout.write(
    `\n===== torana status on ${on.name} (${on.ip}) of ${target.name}: ${title} =====\n${text}\n=====\n\n`,
  );
  return text;
}

interface Status {
  blocks: number;
  validators_reachable: number;
  validators_total: number;
  quorum_needed: number;
  catching_up: boolean;
}

async function status(m: Machine): Promise<Status> {
  return peer(m).getJson<Status>('/status', 10_000);
}

/** The status of `m` from its own machine (for a peer the client cannot reach). */
async function ownStatus(m: Machine): Promise<Status> {
  return toranaOk<Status>(m, ['status', '--url', m.url, '--json']);
}

async function heightOf(m: Machine): Promise<number> {
  return (await status(m)).blocks;
}

function start(m: Machine, startArgs?: string[]): PeerProcess {
  let p = peers.get(m.name);
  if (p === undefined) {
    p = new PeerProcess({
      dir: m.dir,
      url: m.url,
      label: m.name,
      wrap: ['ip', 'netns', 'exec', m.ns],
      env: { ...NODE_ENV, TORANA_GATEWAY_HOST: m.ip },
    });
    peers.set(m.name, p);
  }
  if (startArgs !== undefined) p.startArgs = startArgs;
  p.start();
  return p;
}

/** Rewrites `m`'s config.toml with the `network` section changed (what its operator would edit). */
async function editNetwork(m: Machine, change: Partial<Config['network']>): Promise<void> {
  const c = await loadNodeConfig({ dir: m.dir });
  const next = { ...c, network: { ...c.network, ...change } };
  await writeFileAtomic(nodeFiles(m.dir).config, renderConfigToml(next, { onlyNonDefault: true }), 0o600);
}

/** Runs `body` unless an earlier step failed (each step builds on the one before). */
function step(name: string, timeoutMs: number, body: () => Promise<void>): void {
  it(name, { timeout: timeoutMs }, async (t) => {
    if (failed) return t.skip('an earlier step failed');
    const t0 = Date.now();
    say(`step: ${name}`);
    try {
      await body();
    } catch (e) {
      failed = true;
      for (const [name, p] of peers)
        process.stdout.write(`--- last lines of ${name}:\n${p.logs(15).join('\n')}\n`);
      throw e;
    }
    say(`step done in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${name}`);
  });
}

/** Heights of `ms` reach `target` (polled). */
async function waitHeights(ms: Machine[], target: number, timeoutMs = 180_000): Promise<void> {
  await waitUntil(`${ms.map((m) => m.name)} at height ${target}`, timeoutMs, async () => {
    const hs = await Promise.all(ms.map((m) => heightOf(m).catch(() => 0)));
    return hs.every((h) => h >= target);
  });
}

interface Block {
  hash: string;
  transactions: { hash: string }[];
}

/** The first height each machine's block log holds: 1, or the height of the snapshot it started from. */
const firstHeights = new Map<string, number>();

/** Blocks first..top of `m` (GET /v1/explorer/blocks/:height, 8 at a time); first is its log's first. */
async function blocksOf(m: Machine, top: number): Promise<Block[]> {
  const out: Block[] = [];
  for (let h = firstHeights.get(m.name) ?? 1; h <= top; h += 8) {
    const batch = Array.from({ length: Math.min(8, top - h + 1) }, (_, i) =>
      peer(m).getJson<Block>(`/v1/explorer/blocks/${h + i}`, 30_000),
    );
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

async function waitReachable(ms: Machine[], reachable: number, timeoutMs = 180_000): Promise<void> {
  await waitUntil(`${ms.map((m) => m.name)} reach ${reachable} validators`, timeoutMs, async () => {
    const ss = await Promise.all(ms.map((m) => status(m).catch(() => undefined)));
    return ss.every((s) => s?.validators_reachable === reachable);
  });
}

describe('a network on separate hosts', { timeout: 1_400_000 }, () => {
  after(async () => {
    await transfers?.stop();
    await Promise.all([...peers.values()].map((p) => p.stop(15_000)));
    // The tmpfs is in this process's mount namespace (the script's `ip netns exec` made it).
    spawnSync('umount', [join(observer.dir, 'data')]);
  });

  step(
    'genesis ceremony: each operator on its machine, the coordinator combines, each adopts by hash',
    600_000,
    async () => {
      for (const m of plan.machines) await mkdir(m.home, { recursive: true });
      // 1. Each validator's operator, on its own machine: keys and a signed entry.
      await Promise.all(
        genesisValidators.map((m) =>
          toranaOk(m, ['genesis', 'entry', '--dir', m.dir, '--chain-id', CHAIN, '--address', m.p2p]),
        ),
      );
      // The entries travel to the coordinator (here: the client machine).
      const inbox = join(client.home, 'entries');
      await mkdir(inbox, { recursive: true });
      const entries = [];
      for (const m of genesisValidators) {
        const to = join(inbox, `${m.name}.json`);
        await copyFile(join(m.dir, 'genesis-entry.json'), to);
        entries.push(to);
      }
      // 2. The coordinator: collect, with the admin key made in its own admin directory.
      const genesisFile = join(client.home, 'genesis.json');
      const collected = await toranaOk<{ hash: string; validators: number }>(client, [
        'genesis',
        'collect',
        '--chain-id',
        CHAIN,
        '--admin-dir',
        join(client.home, 'admin'),
        '--out',
        genesisFile,
        '--json',
        ...entries,
      ]);
      assert.equal(collected.validators, 4);
      genesisHash = collected.hash;
      say(`genesis hash ${genesisHash}`);
      // 3. Every operator receives the file (and the hash by another channel), verifies and adopts it.
      const receivers = [...genesisValidators, observer];
      for (const m of receivers) await copyFile(genesisFile, join(m.home, 'genesis.json'));
      const adopted = await Promise.all(
        receivers.map((m) =>
          toranaOk<{ role: string; authority: string }>(m, [
            'genesis',
            'adopt',
            join(m.home, 'genesis.json'),
            '--hash',
            genesisHash,
            '--dir',
            m.dir,
            '--json',
          ]),
        ),
      );
      assert.deepEqual(
        adopted.map((a) => a.role),
        ['validator', 'validator', 'validator', 'validator', 'observer'],
      );
      authority = adopted[0]!.authority;
      // A file with another hash is refused.
      const wrong = await toranaOn(observer, [
        'genesis',
        'verify',
        join(observer.home, 'genesis.json'),
        '--hash',
        '00'.repeat(32),
      ]);
      assert.equal(wrong.code, 1);
      assert.match(wrong.err, /genesis_hash_mismatch/);

      // No machine holds another machine's private key, nor the genesis admin or bridge key.
      const secrets: Secret[] = [];
      for (const m of receivers) secrets.push(...(await secretsIn(m.name, m.dir)));
      secrets.push(...(await secretsIn(client.name, join(client.home, 'admin'))));
      assert.equal(secrets.length, 5 * 2 + 2, secrets.map((s) => `${s.owner}/${s.what}`).join(' '));
      for (const m of [...receivers, client]) {
        const leaks = await foreignSecrets(m.home, m.name, secrets);
        assert.deepEqual(leaks, [], `${m.name}'s files hold keys that are not its own`);
      }
      say(`key scan: ${secrets.length} private keys, none outside its own machine`);

      // The observer is followed by the validators: each lists its peer id (accept-only).
      const obsId = (
        await toranaOk<{ peer: string }>(observer, ['keys', 'validator', '--dir', observer.dir, '--json'])
      ).peer;
      for (const m of genesisValidators)
        await editNetwork(m, {
          peers: [...(await loadNodeConfig({ dir: m.dir })).network.peers, obsId],
        });
      // The observer's data directory is a small disk of its own.
      await mkdir(join(observer.dir, 'data'), { recursive: true });
      // Mounted in this process's mount namespace, which the observer's `ip netns exec` copies.
      const mounted = spawnSync(
        'mount',
        ['-t', 'tmpfs', '-o', `size=${OBSERVER_DISK}`, 'tmpfs', join(observer.dir, 'data')],
        {
          encoding: 'utf8',
        },
      );
      assert.equal(mounted.status, 0, mounted.stderr);
    },
  );

  step('four validators start on their machines and commit transfers', 600_000, async () => {
    for (const m of genesisValidators) start(m);
    await Promise.all(genesisValidators.map((m) => peer(m).waitReady(400_000)));
    await waitReachable(genesisValidators, 4, 240_000);
    const admin = { id: authority, key: await loadKeyFile(adminKeyFile) };
    transfers = new Transfers({ chainId: CHAIN, admin, asset: ASSET, rate: 8 });
    await transfers.setup(genesisValidators[0]!.url);
    transfers.start(genesisValidators.map((m) => m.url));
    const h = await heightOf(genesisValidators[0]!);
    await waitHeights(genesisValidators, h + 5);
    await captureStatus('healthy, four validators', genesisValidators[0]!);
  });

  step('the observer joins from a snapshot, then by block sync', 600_000, async () => {
    const v0 = genesisValidators[0]!;
    // The validator's operator makes a snapshot while its node runs and hands the file over (as scp).
    const made = join(v0.home, 'state.snap');
    await toranaOk(v0, ['snapshot', 'create', '--dir', v0.dir, '--out', made]);
    const file = join(observer.home, 'state.snap');
    await copyFile(made, file);
    const checked = await toranaOk(observer, [
      'snapshot',
      'verify',
      '--file',
      file,
      '--genesis',
      join(observer.home, 'genesis.json'),
    ]);
    say(`snapshot verified on the observer: ${checked.trim().split('\n').at(-1)}`);
    const top = await heightOf(v0);
    start(observer, ['--from-snapshot', file]);
    await peer(observer).waitReady(400_000);
    const restored = peer(observer)
      .logs(400)
      .find((l) => /restored height \d+/.test(l));
    assert.ok(restored !== undefined, 'the observer did not start from the snapshot');
    const base = Number(/restored height (\d+)/.exec(restored)![1]);
    assert.ok(base >= 2, `snapshot at height ${base}`);
    firstHeights.set(observer.name, base);
    await waitHeights([observer], top + 2, 300_000);
    // Blocks below the snapshot were never fetched: the observer's log starts at its height.
    const below = await fetch(`${observer.url}/v1/explorer/blocks/${base - 1}`);
    assert.equal(below.status, 404, `the observer answered block ${base - 1}`);
    const s = await status(observer);
    say(`observer restored at height ${base}, now at ${s.blocks} (the validators were at ${top})`);
  });

  step('kill -9 of one validator, then of a second (no quorum), both restarted', 900_000, async () => {
    const [v0, v1, v2, v3] = genesisValidators as [Machine, Machine, Machine, Machine];
    await transfers!.retarget([v0.url, v1.url, v2.url]);
    await peer(v3).kill9();
    await waitReachable([v0, v1, v2], 3);
    const h = await heightOf(v0);
    await waitHeights([v0, v1, v2], h + 3);
    const one = await captureStatus('one validator down (v3 killed with kill -9)', v0);
    assert.match(one, /^quorum: 3\/4 validators reachable, 3 needed$/m);

    await transfers!.retarget([v0.url, v1.url]);
    await peer(v2).kill9();
    await waitReachable([v0, v1], 2);
    const two = await captureStatus('two validators down (v2 and v3 killed): no quorum', v0);
    assert.match(two, /^no quorum: 2\/4 validators reachable, 3 needed$/m);
    assert.match(two, /^no block can commit until more validators are reachable$/m);

    start(v2);
    start(v3);
    await Promise.all([peer(v2).waitReady(400_000), peer(v3).waitReady(400_000)]);
    await waitReachable(genesisValidators, 4, 300_000);
    const top = await heightOf(v0);
    await waitHeights(genesisValidators, top + 2, 300_000);
    await transfers!.retarget(genesisValidators.map((m) => m.url));
    await captureStatus('both restarted', v0);
  });

  step('a validator cut off by taking its cable down, then reconnected', 900_000, async () => {
    const [v0, v1, v2, v3] = genesisValidators as [Machine, Machine, Machine, Machine];
    await transfers!.retarget([v0.url, v2.url, v3.url]);
    const down = await runIn(plan.switchNs, 'ip', ['link', 'set', v1.name, 'down']);
    assert.equal(down.code, 0, down.err);
    await waitReachable([v0, v2, v3], 3);
    await waitUntil(
      'v1 sees itself alone',
      180_000,
      async () => (await ownStatus(v1)).validators_reachable === 1,
    );
    const h1 = (await ownStatus(v1)).blocks;
    const h = await heightOf(v0);
    await waitHeights([v0, v2, v3], h + 3);
    const own = await captureStatus('v1 cut off (its cable down), its own view', v1);
    assert.match(own, /^no quorum: 1\/4 validators reachable, 3 needed$/m);
    await captureStatus('v1 cut off, seen from a connected validator', v0);
    assert.equal((await ownStatus(v1)).blocks, h1, 'the cut-off validator committed nothing alone');

    const up = await runIn(plan.switchNs, 'ip', ['link', 'set', v1.name, 'up']);
    assert.equal(up.code, 0, up.err);
    await waitReachable(genesisValidators, 4, 300_000);
    await waitHeights([v1], await heightOf(v0), 300_000);
    await transfers!.retarget(genesisValidators.map((m) => m.url));
  });

  step('a fifth validator on its own machine joins by RegisterPeer', 900_000, async () => {
    const v0 = genesisValidators[0]!;
    await toranaOk(fifth, [
      'genesis',
      'entry',
      '--dir',
      fifth.dir,
      '--chain-id',
      CHAIN,
      '--address',
      fifth.p2p,
    ]);
    await copyFile(join(client.home, 'genesis.json'), join(fifth.home, 'genesis.json'));
    const adopted = await toranaOk<{ role: string }>(fifth, [
      'genesis',
      'adopt',
      join(fifth.home, 'genesis.json'),
      '--hash',
      genesisHash,
      '--dir',
      fifth.dir,
      '--listen',
      fifth.p2p,
      '--json',
    ]);
    assert.equal(adopted.role, 'observer');
    await editNetwork(fifth, { role: 'validator' });
    start(fifth);
    await peer(fifth).waitReady(400_000);
    // Its entry travels to the genesis admin, who registers it.
    const entry = JSON.parse(await readFile(join(fifth.dir, 'genesis-entry.json'), 'utf8')) as {
      peer: string;
      address: string;
      bls_key: string;
      pop: string;
    };
    const out = await toranaOk(client, [
      'peer',
      'register',
      entry.peer,
      '--address',
      entry.address,
      '--bls-key',
      entry.bls_key,
      '--pop',
      entry.pop,
      '--url',
      v0.url,
      '--account',
      authority,
      '--key-file',
      adminKeyFile,
    ]);
    say(`peer register: ${out.trim()}`);
    const all = [...genesisValidators, fifth];
    await waitUntil('five validators, all reachable', 300_000, async () => {
      const ss = await Promise.all(all.map((m) => status(m).catch(() => undefined)));
      return ss.every((s) => s?.validators_total === 5 && s.validators_reachable === 5);
    });
    await waitHeights([fifth], (await heightOf(v0)) + 2, 300_000);
    await transfers!.retarget(all.map((m) => m.url));
    await waitHeights(all, (await heightOf(v0)) + 3);
    const text = await captureStatus('five validators after the RegisterPeer', fifth);
    assert.match(text, /^quorum: 5\/5 validators reachable, 4 needed$/m);
  });

  step('the observer runs out of disk, then is freed and restarted', 900_000, async () => {
    const v0 = genesisValidators[0]!;
    // Another process fills the observer's disk.
    const filler = await open(join(observer.dir, 'data', 'filler'), 'w');
    const chunk = Buffer.alloc(1 << 20, 0x5a);
    let written = 0;
    try {
      for (;;) {
        await filler.write(chunk);
        written += chunk.length;
      }
    } catch (e) {
      assert.equal((e as NodeJS.ErrnoException).code, 'ENOSPC');
    } finally {
      await filler.close();
    }
    say(`filled the observer's ${OBSERVER_DISK} disk with ${written >> 20} MiB`);
    const stuckAt = await heightOf(observer).catch(() => 0);
    await waitHeights([v0], stuckAt + 10, 300_000);
    process.stdout.write(`--- the observer's last log lines:\n${peer(observer).logs(12).join('\n')}\n`);
    const obsView = await captureStatus('the observer with a full disk, its own view', observer);
    await captureStatus('the observer with a full disk, seen from a validator', v0);
    const h = await heightOf(observer).catch(() => undefined);
    say(
      `observer at ${h ?? 'no answer'} after the disk filled at ${stuckAt}; validators at ${await heightOf(v0)}`,
    );
    assert.ok(h === undefined || h < (await heightOf(v0)) - 5, obsView);
    // A node whose block log or state store cannot be written stops committing, and its process stays
    // up: /status still answers (from memory) and `torana status` says first that it stopped. (A full
    // disk under the state store's LMDB once ended the process instead.)
    assert.ok(
      peer(observer).running,
      `the observer's process ended: ${JSON.stringify(peer(observer).lastExit)}\n${peer(observer).logs(20).join('\n')}`,
    );
    assert.match(obsView, /^stopped: the node hit a fatal error .* and commits nothing until restarted$/m);
    // Disk freed and the node restarted: it replays its log and syncs what it missed.
    await rm(join(observer.dir, 'data', 'filler'));
    const exit = await peer(observer).stop(30_000);
    say(`the observer stopped with ${JSON.stringify(exit)}`);
    start(observer);
    await peer(observer).waitReady(400_000);
    await waitHeights([observer], await heightOf(v0), 300_000);
    const back = await captureStatus('the observer restarted after its disk was freed', observer);
    assert.doesNotMatch(back, /^stopped:/m);
  });

  step('one chain, every acknowledged transfer committed, balances conserved', 600_000, async () => {
    const validators = [...genesisValidators, fifth];
    const all = [...validators, observer];
    const report = await transfers!.stop();
    say(`transfers: ${JSON.stringify(report)}`);
    assert.ok(report.acknowledged > 50, JSON.stringify(report));
    const acknowledged = transfers!.acknowledged.map((t) => t.hash);
    // Every peer, the observer (restarted last, still syncing) among them, holds the validators' newest
    // height before its balances are compared: the block check below passes the observer by.
    const top = Math.max(...(await Promise.all(validators.map((m) => heightOf(m)))));
    await waitHeights(all, top, 300_000);
    let chains: Block[][] = [];
    // Every acknowledged transfer is in the blocks of every peer holding the whole chain; the observer,
    // started from a snapshot, holds the blocks from its height on (and the state, checked below).
    await waitUntil('every acknowledged transfer committed on every peer', 300_000, async () => {
      chains = await Promise.all(all.map(async (m) => blocksOf(m, await heightOf(m))));
      return chains.every((blocks, i) => {
        if ((firstHeights.get(all[i]!.name) ?? 1) !== 1) return true;
        const committed = new Set(blocks.flatMap((b) => b.transactions.map((t) => t.hash)));
        return acknowledged.every((h) => committed.has(h));
      });
    });
    // One chain: the same block hash at every height up to the lowest peer's, on every peer holding it.
    const tops = chains.map((c, i) => (firstHeights.get(all[i]!.name) ?? 1) + c.length - 1);
    const common = Math.min(...tops);
    for (let h = 1; h <= common; h++) {
      const hashes = chains.flatMap((c, i) => {
        const at = h - (firstHeights.get(all[i]!.name) ?? 1);
        return at >= 0 ? [c[at]!.hash] : [];
      });
      assert.ok(hashes.length >= validators.length, `height ${h}: held by ${hashes.length} peers`);
      assert.equal(new Set(hashes).size, 1, `height ${h}: ${hashes.join(' ')}`);
    }
    const expected = transfers!.expected();
    let total = 0n;
    for (const b of expected.values()) total += b;
    assert.equal(total, INITIAL_BALANCE * BigInt(expected.size));
    for (const m of all)
      for (const [account, balance] of expected)
        assert.equal(await transfers!.balance(m.url, account), balance, `${account} on ${m.name}`);
    say(
      `one chain: heights ${all.map((m, i) => `${m.name}=${tops[i]}`).join(' ')} (the observer's from ` +
        `${firstHeights.get(observer.name)}), the same ` +
        `block hash at 1..${common} on all; ${report.acknowledged} transfers acknowledged, all committed ` +
        `on all ${all.length} peers; balances as the transfers make them, total ${total} conserved`,
    );
  });
});
