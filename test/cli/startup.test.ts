// The CLI's client path loads only what it uses (`torana --help` once took ~0.75 s because every
// command loaded the whole node). Each command runs as a real process with a load tracer
// (test/helpers/trace-loads.mjs: ESM resolutions and native addons), and must not reach the storage,
// the gateway server or the native crypto it does not need. The timing goal is bench/ cli_status_ms.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildProgram } from '../../src/cli/main.js';
import { ROOT } from '../helpers/run-cli.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

/** Packages and source folders only the node itself needs. */
const NODE_SIDE = [
  '/node_modules/lmdb/',
  '/node_modules/fastify/',
  '/node_modules/@fastify/',
  '/node_modules/pino/',
  '/node_modules/prom-client/',
  '/node_modules/ws/',
  '/node_modules/fast-xml-parser/',
  '/node_modules/typebox/',
  '/node_modules/smol-toml/',
  'blst',
  '/src/storage/',
  '/src/pipeline/',
  '/src/gateway/server',
  '/src/node/node.',
];

async function traced(
  args: string[],
  dir: string,
): Promise<{ code: number | null; loads: string[]; err: string }> {
  const out = join(dir, `trace-${args.join('-').replace(/[^a-z]/g, '')}.txt`);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './test/helpers/trace-loads.mjs', 'test/helpers/torana-cli.ts', ...args],
    { cwd: ROOT, env: { ...process.env, TRACE_LOADS_OUT: out } },
  );
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  child.stdout.resume();
  const code = await new Promise<number | null>((r) => child.on('close', r));
  const loads = (await readFile(out, 'utf8')).split('\n').filter(Boolean);
  return { code, loads, err };
}

describe('CLI start-up: client commands load only what they use', () => {
  let t: ServedTestNode;
  let dir: string;
  before(async () => {
    t = await startServedNode();
    dir = await mkdtemp(join(tmpdir(), 'torana-startup-'));
  });
  after(async () => {
    await t.stopAll();
    await rm(dir, { recursive: true, force: true });
  });

  for (const [name, args, allowed] of [
    ['--help', ['--help'], []],
    ['keys generate', ['keys', 'generate', '--json'], ['sodium-native']],
    ['status', ['status', '--json'], []],
  ] as const) {
    it(`${name} loads no node-side module${allowed.length ? ` (${allowed.join(', ')} to sign)` : ''}`, async () => {
      const extra = name === 'status' ? ['--url', t.url, '--dir', dir] : ['--dir', dir];
      const r = await traced([...args, ...extra], dir);
      assert.equal(r.code, 0, r.err);
      assert.ok(
        r.loads.some((l) => l.includes('src/cli/main.ts')),
        'the tracer saw the CLI',
      );
      const forbidden = [...NODE_SIDE, ...(allowed.length ? [] : ['sodium-native'])];
      const leaked = r.loads.filter((l) => forbidden.some((f) => l.includes(f)));
      assert.deepEqual(leaked, [], `${name} loaded node-side modules`);
    });
  }

  it('every command takes --dir and --json', () => {
    const missing: string[] = [];
    const walk = (cmd: ReturnType<typeof buildProgram>, path: string) => {
      if (cmd.commands.length === 0) {
        for (const flag of ['--dir', '--json'])
          if (!cmd.options.some((o) => o.long === flag)) missing.push(`${path} ${flag}`);
      }
      for (const sub of cmd.commands) walk(sub, `${path} ${sub.name()}`.trim());
    };
    walk(buildProgram(), '');
    assert.deepEqual(missing, []);
  });
});
