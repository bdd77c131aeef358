// The committed circuit artifacts belong to the committed circuits: zk/artifacts/manifest.json
// (written by scripts/build-circuits.mjs) holds the SHA-256 of each circuit's sources and of each
// artifact. A circuit edited without `npm run build:circuits`, or an artifact replaced by hand, fails
// here instead of failing later as unexplained invalid proofs.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const ROOT = new URL('../../', import.meta.url);
const sha256 = (path: string) =>
  createHash('sha256')
    .update(readFileSync(new URL(path, ROOT)))
    .digest('hex');

interface Manifest {
  setup: string;
  circuits: Record<string, { sources: Record<string, string>; artifacts: Record<string, string> }>;
}

describe('committed zk artifacts', () => {
  const manifest = JSON.parse(readFileSync(new URL('zk/artifacts/manifest.json', ROOT), 'utf8')) as Manifest;

  it('match the circuit sources they were built from', () => {
    assert.deepEqual(Object.keys(manifest.circuits).sort(), ['note_spend', 'roster', 'usage']);
    for (const [name, c] of Object.entries(manifest.circuits)) {
      for (const [file, digest] of Object.entries(c.sources))
        assert.equal(
          sha256(`circuits/${file}`),
          digest,
          `${name}: circuits/${file} changed; run npm run build:circuits`,
        );
      for (const [file, digest] of Object.entries(c.artifacts))
        assert.equal(sha256(`zk/artifacts/${file}`), digest, `zk/artifacts/${file} differs from its build`);
    }
  });

  it('say they are development keys', () => {
    assert.match(manifest.setup, /NOT for production/);
  });
});
