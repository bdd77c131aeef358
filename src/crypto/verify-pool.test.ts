import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ed25519Generate, ed25519Sign } from './ed25519.js';
import { isCryptoError } from './errors.js';
import type { VerifyItem } from './verify-pool.js';
import { VerifyPool } from './verify-pool.js';

/** `count` items over 50 keys; every 7th has a fault of one of five kinds. Returns the truth too. */
function makeItems(count: number): { items: VerifyItem[]; expected: boolean[] } {
  const keys = Array.from({ length: 50 }, () => ed25519Generate());
  const items: VerifyItem[] = [];
  const expected: boolean[] = [];
  for (let i = 0; i < count; i++) {
    const key = keys[i % keys.length]!;
    const message = new TextEncoder().encode(`transaction ${i} ${'x'.repeat(i % 97)}`);
    const item = { publicKey: key.publicKey, message, signature: ed25519Sign(key.seed, message) };
    const fault = i % 7 === 3 ? ((i / 7) % 5) | 0 : -1;
    if (fault === 0) item.message = new TextEncoder().encode(`transaction ${i + 1}`);
    if (fault === 1) item.signature = Uint8Array.from(item.signature, (b, j) => (j === 40 ? b ^ 4 : b));
    if (fault === 2) item.publicKey = keys[(i + 1) % keys.length]!.publicKey;
    if (fault === 3) item.signature = item.signature.subarray(0, 63);
    if (fault === 4) item.publicKey = new Uint8Array(32); // small order
    items.push(item);
    expected.push(fault === -1);
  }
  return { items, expected };
}

function rate(n: number, ms: number): string {
  return `${Math.round((n * 1000) / ms).toLocaleString('en')} verify/s`;
}

describe('VerifyPool', () => {
  // Ten batches of the default 256 items across the two workers; the throughput itself is bench/'s.
  const COUNT = 2_560;
  const { items, expected } = makeItems(COUNT);

  it('verifies 2,560 signatures (ten default batches) on 2 threads exactly as inline does, in order', async () => {
    const inline = new VerifyPool({ threads: 0 });
    let t = performance.now();
    const inlineResults = await inline.verify(items);
    const inlineMs = performance.now() - t;
    assert.deepEqual(inlineResults, expected);
    assert.ok(expected.filter((ok) => !ok).length > 250);

    const pool = new VerifyPool({ threads: 2 });
    try {
      await pool.verify(items.slice(0, 1024)); // both workers started and warm: start-up is not throughput
      t = performance.now();
      const poolResults = await pool.verify(items);
      const poolMs = performance.now() - t;
      assert.deepEqual(poolResults, inlineResults);
      assert.equal(pool.stats().batchesInFlight, 0);
      console.log(
        `# ed25519 verify, ${COUNT} items: inline ${rate(COUNT, inlineMs)}, 2-thread pool ${rate(COUNT, poolMs)}`,
      );
    } finally {
      await pool.close();
    }
  });

  it('keeps order across many small batches and concurrent calls', async () => {
    const pool = new VerifyPool({ threads: 2, batchMax: 7, batchBytesMax: 600 });
    try {
      const slices = [items.slice(0, 300), items.slice(300, 301), [], items.slice(301, 700)];
      const results = await Promise.all(slices.map((s) => pool.verify(s)));
      assert.deepEqual(results.flat(), expected.slice(0, 700));
      assert.deepEqual(results[2], []);
    } finally {
      await pool.close();
    }
  });

  it('treats malformed items as invalid without failing the batch', async () => {
    const pool = new VerifyPool({ threads: 1 });
    try {
      const good = items[0]!;
      const weird = [
        good,
        { ...good, publicKey: 'nope' },
        { ...good, message: null },
        null,
        { ...good, signature: new Uint8Array(65) },
        good,
      ] as unknown as VerifyItem[];
      assert.deepEqual(await pool.verify(weird), [true, false, false, false, false, true]);
      assert.deepEqual(await new VerifyPool({ threads: 0 }).verify(weird), [
        true,
        false,
        false,
        false,
        false,
        true,
      ]);
    } finally {
      await pool.close();
    }
  });

  it('close() rejects work in flight, then refuses new work', async () => {
    const pool = new VerifyPool({ threads: 2 });
    const pending = assert.rejects(
      pool.verify(items.slice(0, 2000)),
      (e) => isCryptoError(e) && e.code === 'verify_pool_closed',
    );
    await pool.close();
    await pending;
    await assert.rejects(
      pool.verify(items.slice(0, 1)),
      (e) => isCryptoError(e) && e.code === 'verify_pool_closed',
    );
    await pool.close(); // idempotent
  });

  describe('worker lifecycle', () => {
    let dir = '';
    let crashingWorker: URL;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'torana-verify-'));
      // A worker speaking the real protocol that dies on any batch of exactly 13 items.
      const batchModule = new URL('./verify-batch.ts', import.meta.url).href;
      const source = [
        `import { parentPort } from 'node:worker_threads';`,
        `import { verifyBatch } from ${JSON.stringify(batchModule)};`,
        `parentPort!.on('message', ({ id, batch }: { id: number; batch: ArrayBuffer }) => {`,
        `  if (new DataView(batch).getUint32(0, true) === 13) process.exit(3);`,
        `  const results = verifyBatch(batch).buffer as ArrayBuffer;`,
        `  parentPort!.postMessage({ id, results }, [results]);`,
        `});`,
      ].join('\n');
      const path = join(dir, 'crashing-worker.ts');
      await writeFile(join(dir, 'package.json'), '{"type":"module"}');
      await writeFile(path, source);
      crashingWorker = pathToFileURL(path);
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('rejects the batches of a dead worker with a typed error and replaces the worker', async () => {
      const pool = new VerifyPool({ threads: 1, workerUrl: crashingWorker });
      try {
        assert.deepEqual(await pool.verify(items.slice(0, 5)), expected.slice(0, 5));
        await assert.rejects(pool.verify(items.slice(0, 13)), (e) => {
          return isCryptoError(e) && e.code === 'verify_worker_crashed';
        });
        assert.deepEqual(await pool.verify(items.slice(0, 20)), expected.slice(0, 20));
        assert.equal(pool.stats().restarts, 1);
      } finally {
        await pool.close();
      }
    });

    it('keeps the process alive while busy and lets it exit when idle, even without close()', async () => {
      const script = join(dir, 'forgetful.ts');
      const poolModule = new URL('./verify-pool.ts', import.meta.url).href;
      await writeFile(
        script,
        [
          `import { VerifyPool } from ${JSON.stringify(poolModule)};`,
          `const pool = new VerifyPool({ threads: 2 });`,
          `const item = { publicKey: new Uint8Array(32), message: new Uint8Array(1), signature: new Uint8Array(64) };`,
          `pool.verify([item]).then((r) => console.log('answered', r));`,
        ].join('\n'),
      );
      const run = promisify(execFile);
      // The timeout only stops a child the pool kept alive (the failure this test looks for); it is not a
      // speed bound, so it is as wide as the other child's here: a loaded machine takes tens of seconds.
      const { stdout } = await run(process.execPath, ['--import', 'tsx', script], { timeout: 120_000 });
      assert.equal(stdout.trim(), 'answered [ false ]');
    });

    it('fails with a typed error, not a hang, when the worker cannot even start', async () => {
      const pool = new VerifyPool({ threads: 1, workerUrl: pathToFileURL(join(dir, 'missing.ts')) });
      try {
        await assert.rejects(
          pool.verify(items.slice(0, 3)),
          (e) => isCryptoError(e) && e.code === 'verify_worker_crashed',
        );
      } finally {
        await pool.close();
      }
    });
  });
});

describe('verify pool workers started from the sources', () => {
  it('resolve imports under the parent export conditions (the sources, not an unbuilt dist/)', () => {
    const root = new URL('../..', import.meta.url);
    const pool = new URL('src/crypto/verify-pool.ts', root).href;
    const worker = new URL('test/fixtures/workers/resolve-backend.ts', root).href;
    // A .ts worker started as the pool starts it, from a process running the sources under tsx.
    const script =
      `const { startWorker } = await import(${JSON.stringify(pool)});` +
      `const w = startWorker(new URL(${JSON.stringify(worker)}));` +
      `w.once('message', (m) => { console.log(m); w.terminate(); });` +
      `w.once('error', (e) => { console.log('error ' + e.message); process.exitCode = 1; });`;
    const out = execFileSync(
      process.execPath,
      ['--conditions=torana-source', '--import', 'tsx', '--input-type=module', '-e', script],
      // Flags only on the command line (the test runner also sets the condition in NODE_OPTIONS, which a
      // worker would take from the environment instead).
      {
        cwd: fileURLToPath(root),
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, NODE_OPTIONS: '' },
      },
    );
    assert.match(out.trim(), /\/src\/crypto\/backend-node\.ts$/);
  });
});
