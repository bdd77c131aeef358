import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { crashingFailPoints, FAILPOINT_ENV, recordingFailPoints } from '../util/failpoints.js';
import {
  decodeSafety,
  encodeSafety,
  readSafety,
  SAFETY_HEADER_BYTES,
  SafetyFile,
  SafetyFileError,
  safetyTempPath,
  writeSafety,
} from './safety-file.js';

const dirs: string[] = [];
async function tempFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'torana-safety-'));
  dirs.push(dir);
  return join(dir, 'safety');
}
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const bytes = (...v: number[]) => Uint8Array.from(v);
class SimulatedCrash extends Error {}
const crashAt = (name: string) =>
  crashingFailPoints({ name, nth: 1 }, () => {
    throw new SimulatedCrash(name);
  });

async function corruptReason(path: string): Promise<string> {
  try {
    await readSafety(path);
  } catch (e) {
    assert.ok(e instanceof SafetyFileError);
    assert.equal(e.code, 'safety_file_corrupt');
    return e.reason;
  }
  return 'read';
}

describe('writeSafety / readSafety', () => {
  it('reads undefined before the first write, then the latest payload', async () => {
    const path = await tempFile();
    assert.equal(await readSafety(path), undefined);
    await writeSafety(path, bytes(1, 2, 3));
    assert.deepEqual(await readSafety(path), bytes(1, 2, 3));
    await writeSafety(path, new Uint8Array(0));
    assert.deepEqual(await readSafety(path), new Uint8Array(0));
    await writeSafety(path, bytes(9));
    assert.deepEqual(await readSafety(path), bytes(9));
    assert.equal(existsSync(safetyTempPath(path)), false);
  });

  it('refuses every torn length and every flipped byte', async () => {
    const path = await tempFile();
    const payload = bytes(10, 20, 30, 40);
    const whole = encodeSafety(payload);
    for (let cut = 0; cut < whole.length; cut++) {
      await writeFile(path, whole.subarray(0, cut));
      assert.notEqual(await corruptReason(path), 'read', `a file cut at ${cut} bytes was accepted`);
    }
    for (let i = 0; i < whole.length; i++) {
      const bad = whole.slice();
      bad[i] = (bad[i] ?? 0) ^ 0x40;
      assert.throws(() => decodeSafety(path, bad), SafetyFileError, `flip at byte ${i} was accepted`);
    }
    await writeFile(path, Uint8Array.of(...whole, 0));
    assert.equal(await corruptReason(path), 'length_mismatch');
    await writeFile(path, whole.subarray(0, SAFETY_HEADER_BYTES - 1));
    assert.equal(await corruptReason(path), 'short_header');
    const v2 = whole.slice();
    v2[4] = 2;
    await writeFile(path, v2);
    assert.equal(await corruptReason(path), 'unsupported_version');
    await writeFile(path, Uint8Array.of(0, ...whole.subarray(1)));
    assert.equal(await corruptReason(path), 'bad_magic');
    await writeFile(path, whole);
    assert.deepEqual(await readSafety(path), payload);
  });

  it('leaves the old file intact after a crash between the temp write and the rename', async () => {
    const path = await tempFile();
    await writeSafety(path, bytes(1));
    const write = writeSafety(path, bytes(2), { failPoints: crashAt('safety.after-temp-write') });
    await assert.rejects(write, SimulatedCrash);
    assert.deepEqual(await readSafety(path), bytes(1));
    assert.ok(existsSync(safetyTempPath(path)), 'the crash left its temp file');
    await truncate(safetyTempPath(path), 5); // a torn temp file is simply overwritten
    await writeSafety(path, bytes(3));
    assert.deepEqual(await readSafety(path), bytes(3));
  });

  it('shows the new content after a crash right after the rename', async () => {
    const path = await tempFile();
    await writeSafety(path, bytes(1));
    await assert.rejects(
      writeSafety(path, bytes(2), { failPoints: crashAt('safety.after-rename') }),
      SimulatedCrash,
    );
    assert.deepEqual(await readSafety(path), bytes(2));
  });

  it('keeps the old file when the process is killed at the fail point', async () => {
    const path = await tempFile();
    await writeSafety(path, bytes(7, 7));
    const module = fileURLToPath(new URL('./safety-file.ts', import.meta.url));
    const failpoints = fileURLToPath(new URL('../util/failpoints.ts', import.meta.url));
    const script = [
      `import { writeSafety } from ${JSON.stringify(module)};`,
      `import { failPointsFromEnv } from ${JSON.stringify(failpoints)};`,
      `await writeSafety(${JSON.stringify(path)}, Uint8Array.of(8), { failPoints: failPointsFromEnv(process.env) });`,
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, [FAILPOINT_ENV]: 'safety.after-temp-write:1' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(run.signal, 'SIGKILL', `child was not killed: ${run.stderr}`);
    assert.deepEqual(await readSafety(path), bytes(7, 7));
    assert.deepEqual(decodeSafety(path, await readFile(safetyTempPath(path))), bytes(8));
  });
});

describe('SafetyFile', () => {
  it('coalesces a burst into at most two writes; every promise sees bytes at least as new', async () => {
    const path = await tempFile();
    const fp = recordingFailPoints();
    const file = new SafetyFile(path, { failPoints: fp });
    const buffer = bytes(0);
    const writes: Promise<void>[] = [];
    for (let n = 1; n <= 6; n++) {
      buffer[0] = n; // the writer copies: reusing the caller's buffer is safe
      writes.push(file.write(buffer).then(async () => assert.ok(((await file.read()) ?? [0])[0]! >= n)));
    }
    await Promise.all(writes);
    assert.equal(file.writes, 2);
    assert.deepEqual(await file.read(), bytes(6));
    assert.equal(fp.names.filter((n) => n === 'safety.after-rename').length, 2);
    await file.write(bytes(7));
    assert.equal(file.writes, 3);
  });

  it('rejects the writes a failure carried and lets the next one try again', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'torana-safety-')), 'later');
    dirs.push(dir);
    const file = new SafetyFile(join(dir, 'safety'));
    await assert.rejects(file.write(bytes(1)), { code: 'ENOENT' });
    await mkdir(dir);
    await file.write(bytes(2));
    assert.deepEqual(await file.read(), bytes(2));
    assert.equal(file.writes, 1);
  });
});
