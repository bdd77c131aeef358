#!/usr/bin/env node
// `npm run test:hosts`: a network whose peers are separate hosts. Each "machine" is a Linux network
// namespace with its own address on a private subnet, joined to the others by one bridge, as hosts on
// one switch: 4 validators, an observer, a fifth validator added later, and a client machine (the
// coordinator of the genesis ceremony, and where the test itself runs). The test body is
// test/hosts/network.hosts.ts (a node:test file that `npm test` does not run): the genesis ceremony
// run by separate operators, `torana start` on each machine, a transfer workload, kill -9, a cut cable,
// a validator added by RegisterPeer and a full disk (docs/operations.md "Three machines, step by step").
//
// Needs root and `ip netns` (iproute2); without them it prints "skipped: …" and exits 0. The bridge
// lives in a namespace of its own and every address is inside a namespace: nothing is added to the
// host's own network. Everything this script makes is named `thost-*` (namespaces) or lives under
// WORK_DIR; what an earlier, killed run left is removed first, and everything is removed on exit,
// failure or signal.

import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildTestBundle, removeTestBundle } from './test-bundle.mjs';

const root = new URL('..', import.meta.url).pathname;
const PREFIX = 'thost-';
const SWITCH = `${PREFIX}switch`;
const BRIDGE = 'br0';
const SUBNET = '10.77.0';
const WORK_DIR = '/tmp/torana-hosts';
/** The machines: name (also the switch-side veth's name), last octet of its address. */
const MACHINES = [
  { name: 'client', octet: 2 },
  { name: 'v0', octet: 10 },
  { name: 'v1', octet: 11 },
  { name: 'v2', octet: 12 },
  { name: 'v3', octet: 13 },
  { name: 'v4', octet: 14 },
  { name: 'obs', octet: 20 },
];
const TEST_FILE = 'test/hosts/network.hosts.ts';

const started = Date.now();
const log = (line) => process.stdout.write(`test:hosts: ${line}\n`);

function skip(why) {
  log(`skipped: ${why}`);
  process.exit(0);
}

/** Runs `ip …` (or another command); throws with its stderr unless `ok` is false. */
function sh(cmd, args, { ok = true } = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (ok && r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${(r.stderr || r.error?.message) ?? ''}`);
  return r;
}

function ourNamespaces() {
  const r = sh('ip', ['netns', 'list'], { ok: false });
  if (r.status !== 0) return [];
  return r.stdout
    .split('\n')
    .map((l) => l.split(' ')[0])
    .filter((n) => n?.startsWith(PREFIX));
}

/** Kills every process inside our namespaces (all started by this script), then deletes them. */
function cleanup() {
  for (const ns of ourNamespaces()) {
    const pids = sh('ip', ['netns', 'pids', ns], { ok: false }).stdout?.split('\n').filter(Boolean) ?? [];
    for (const pid of pids) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {}
    }
    sh('ip', ['netns', 'del', ns], { ok: false });
  }
  rmSync(WORK_DIR, { recursive: true, force: true });
}

if (process.platform !== 'linux') skip('network namespaces need Linux');
if (typeof process.getuid !== 'function' || process.getuid() !== 0)
  skip('needs root to create network namespaces (run as root, as CI does)');
const probe = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' });
if (probe.error !== undefined || probe.status !== 0)
  skip(`\`ip netns\` is unavailable (${probe.error?.message ?? probe.stderr.trim()}); install iproute2`);

const leftovers = ourNamespaces();
if (leftovers.length > 0) log(`removing what an earlier run left: ${leftovers.join(', ')}`);
cleanup();

let child;
let bundle;
let exiting = false;
function finish(code) {
  if (exiting) return;
  exiting = true;
  if (child?.exitCode === null) child.kill('SIGKILL');
  cleanup();
  if (bundle !== undefined) removeTestBundle(bundle);
  log(`ran for ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(code);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => finish(130));

try {
  sh('ip', ['netns', 'add', SWITCH]);
} catch (e) {
  skip(`cannot create a network namespace here: ${e.message.trim()}`);
}
try {
  sh('ip', ['-n', SWITCH, 'link', 'add', BRIDGE, 'type', 'bridge']);
  sh('ip', ['-n', SWITCH, 'link', 'set', BRIDGE, 'up']);
  for (const m of MACHINES) {
    const ns = `${PREFIX}${m.name}`;
    sh('ip', ['netns', 'add', ns]);
    // One cable: `m.name` on the switch, eth0 in the machine.
    sh('ip', ['-n', SWITCH, 'link', 'add', m.name, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns]);
    sh('ip', ['-n', SWITCH, 'link', 'set', m.name, 'master', BRIDGE]);
    sh('ip', ['-n', SWITCH, 'link', 'set', m.name, 'up']);
    sh('ip', ['-n', ns, 'addr', 'add', `${SUBNET}.${m.octet}/24`, 'dev', 'eth0']);
    sh('ip', ['-n', ns, 'link', 'set', 'eth0', 'up']);
    sh('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
  }
} catch (e) {
  log(`setting up the namespaces failed: ${e.message}`);
  finish(1);
}
log(
  `${MACHINES.length} machines on ${SUBNET}.0/24 (bridge ${BRIDGE} in ${SWITCH}): ` +
    MACHINES.map((m) => `${m.name}=${SUBNET}.${m.octet}`).join(' '),
);

const plan = {
  workDir: WORK_DIR,
  switchNs: SWITCH,
  machines: MACHINES.map((m) => ({ name: m.name, ns: `${PREFIX}${m.name}`, ip: `${SUBNET}.${m.octet}` })),
};
// The test file runs as a plain script (node:test reports to stdout, where the status captures go too:
// under `--test` they would arrive as escaped comments). The CLI and nodes start from the test bundle, as under `npm test` (scripts/test-bundle.mjs).
bundle = await buildTestBundle(root);
const env = {
  ...process.env,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --conditions=torana-source`.trim(),
  TEST_ENTRY_BUNDLE: bundle,
  HOSTS_TEST_PLAN: JSON.stringify(plan),
};
child = spawn(
  'ip',
  ['netns', 'exec', `${PREFIX}client`, process.execPath, '--import', 'tsx', join(root, TEST_FILE)],
  { cwd: root, env, stdio: 'inherit' },
);
child.on('close', (code, signal) => finish(code ?? (signal ? 1 : 0)));
