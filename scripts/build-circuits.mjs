#!/usr/bin/env node
// `npm run build:circuits`: compiles circuits/*.circom with circom2 (circom in WebAssembly) and runs
// a DEVELOPMENT Groth16 setup, writing zk/artifacts/<circuit>.wasm, <circuit>.zkey and
// <circuit>.vkey.json (docs/security.md "Development keys").
//
// The development setup is reproducible and therefore INSECURE: every random contribution is a
// public beacon (snarkjs' beacon with the fixed hashes below) instead of secret entropy, so anyone
// can rebuild the toxic waste and forge proofs. The committed keys exist so tests and `torana init`
// work without running a ceremony; a production network runs a real multi-party ceremony and sets
// its own verifying keys (the same command prints the steps with `--help`).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as snarkjs from 'snarkjs';

const ROOT = new URL('..', import.meta.url).pathname;
const OUT = join(ROOT, 'zk', 'artifacts');
const CIRCUITS = ['roster', 'usage', 'note_spend'];
/** 2^13 constraints: every circuit stays below it (the largest, note_spend, has about 5,300). */
const PTAU_POWER = 13;
/**
 * Public, fixed "entropy": SHA-256 of the UTF-8 texts
 * "torana development setup, phase 1, not for production" and the same with "phase 2".
 */
const PHASE1_BEACON = '5257c355cd4c77234f5eeacca7102ed5cd042d206eb3d9f691f0940347925f46';
const PHASE2_BEACON = '5e65329c4a480d5159fea7b37a511494c5d23674340cfa51e63551e37707db22';
const BEACON_ITERATIONS_EXP = 10;

const HELP = `build-circuits: compile circuits/ and run a DEVELOPMENT Groth16 setup into zk/artifacts/.

The development keys are derived from public beacons: anyone can forge proofs for them.
For a production network, run a real ceremony instead, for each circuit:
  1. phase 1: use a public Powers of Tau transcript of size >= 2^${PTAU_POWER} (bn128), prepared
     for phase 2 (snarkjs powersoftau prepare phase2), verified with snarkjs powersoftau verify;
  2. compile: npx circom2 circuits/<c>.circom --r1cs --wasm --O2 -l node_modules;
  3. phase 2: snarkjs groth16 setup <c>.r1cs <ptau> <c>_0.zkey, then each participant runs
     snarkjs zkey contribute with secret entropy, and a final public beacon (snarkjs zkey beacon);
  4. snarkjs zkey verify <c>.r1cs <ptau> <c>_final.zkey, then snarkjs zkey export verificationkey;
  5. set the keys on the network (SetParameter Custom, one key per circuit) and ship the wasm and zkey
     to clients (the SDK accepts artifact bytes or URLs).`;

async function compile(name, work) {
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'circom2', 'cli.js'),
      join(ROOT, 'circuits', `${name}.circom`),
      '--r1cs',
      '--wasm',
      '--O2',
      '-o',
      work,
    ],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
}

async function phase1(curve, work) {
  const p0 = join(work, 'pot_0.ptau');
  const p1 = join(work, 'pot_1.ptau');
  const final = join(work, 'pot_final.ptau');
  await snarkjs.powersOfTau.newAccumulator(curve, PTAU_POWER, p0);
  await snarkjs.powersOfTau.beacon(p0, p1, 'torana dev phase 1', PHASE1_BEACON, BEACON_ITERATIONS_EXP);
  await snarkjs.powersOfTau.preparePhase2(p1, final);
  return final;
}

async function phase2(name, ptau, work) {
  const z0 = join(work, `${name}_0.zkey`);
  const z1 = join(OUT, `${name}.zkey`);
  await snarkjs.zKey.newZKey(join(work, `${name}.r1cs`), ptau, z0);
  await snarkjs.zKey.beacon(z0, z1, 'torana dev phase 2', PHASE2_BEACON, BEACON_ITERATIONS_EXP);
  const vkey = await snarkjs.zKey.exportVerificationKey(z1);
  writeFileSync(join(OUT, `${name}.vkey.json`), `${JSON.stringify(vkey, null, 2)}\n`);
  copyFileSync(join(work, `${name}_js`, `${name}.wasm`), join(OUT, `${name}.wasm`));
}

const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');

/**
 * zk/artifacts/manifest.json: the SHA-256 of each circuit's sources and of each artifact, so a test
 * (test/zk/artifacts.test.ts) notices a circuit edited without rebuilding the artifacts.
 */
function writeManifest() {
  const circuits = {};
  for (const name of CIRCUITS) {
    circuits[name] = {
      sources: Object.fromEntries(
        [`${name}.circom`, 'lib/merkle.circom'].map((f) => [f, sha256(join(ROOT, 'circuits', f))]),
      ),
      artifacts: Object.fromEntries(
        ['wasm', 'zkey', 'vkey.json'].map((ext) => [`${name}.${ext}`, sha256(join(OUT, `${name}.${ext}`))]),
      ),
    };
  }
  const manifest = {
    setup: 'development (public beacons): NOT for production',
    ptauPower: PTAU_POWER,
    circuits,
  };
  writeFileSync(join(OUT, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

async function main() {
  if (process.argv.includes('--help')) {
    console.log(HELP);
    return;
  }
  if (process.argv.includes('--manifest-only')) {
    writeManifest();
    return;
  }
  mkdirSync(OUT, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'torana-circuits-'));
  const curve = await snarkjs.curves.getCurveFromName('bn128', { singleThread: true });
  try {
    for (const name of CIRCUITS) await compile(name, work);
    const ptau = await phase1(curve, work);
    for (const name of CIRCUITS) {
      await phase2(name, ptau, work);
      console.log(`zk/artifacts/${name}: wasm, zkey, vkey.json written`);
    }
    writeManifest();
  } finally {
    await curve.terminate();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
// snarkjs caches the curves it builds internally (with worker threads) and never terminates them.
process.exit(0);
