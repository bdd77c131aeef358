// The SDK prover (`torana/sdk/zk`) in a browser bundle: esbuild bundles src/modules/conference/sdk-zk.ts for the
// browser with no plugin (snarkjs resolves to its browser build) and finds no Node built-in and no
// native package in the graph; the artifacts then come as URLs or bytes (`artifacts` option), and
// `packagedArtifacts` answers URLs, not file paths, outside `file:`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build, type Message } from 'esbuild';

const ENTRY = fileURLToPath(new URL('../../src/modules/conference/sdk-zk.ts', import.meta.url));

describe('the zk prover in a browser bundle', () => {
  it('bundles for the browser without Node built-ins or native packages', async () => {
    const result = await build({
      entryPoints: [ENTRY],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      conditions: ['torana-source'],
      metafile: true,
      logLevel: 'silent',
    }).catch((e: { errors?: Message[] }) => {
      assert.fail((e.errors ?? []).map((m) => `${m.location?.file ?? '?'}: ${m.text}`).join('\n'));
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.deepEqual(
      inputs.filter((f) => /sodium-native|blst|lmdb|backend-node/.test(f)),
      [],
    );
    assert.ok(
      inputs.some((f) => /snarkjs\/build\/browser/.test(f)),
      'snarkjs browser build',
    );
    assert.ok(result.outputFiles[0]!.text.length < 2_000_000, 'bundle under 2 MB');
  });
});
