// The SDK package marks its codec constructions pure (scripts/sdk-pure.mjs, used by scripts/build-sdk.mjs),
// so an application's bundler drops the codecs its code never reaches. Shown here: marking adds only
// comments (esbuild's output of every source file, marks stripped, is that of the unmarked file: no mark
// inside a string, a template or a declaration), and a bundle of the SDK client alone, from marked
// sources, leaves out view codecs nothing it uses reaches and is smaller than one from the sources as
// they are. And the SDK's builds leave out the modules' configuration sections, which no SDK code reads:
// the registry then adds none, and the bundle still builds, signs and encodes transactions.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, transform } from 'esbuild';
// @ts-expect-error: a plain ES module script without types
import { markPureCodecs, pureCodecs, withoutModuleConfig } from '../../scripts/sdk-pure.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MARK = '/* @__PURE__ */ ';

async function sources(dir: string, out: string[] = []): Promise<string[]> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await sources(p, out);
    else if (p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

describe('codec constructions marked pure for the SDK bundle', () => {
  it('marks calls of the codec constructors a file imports, and nothing else', () => {
    const src = [
      "import { option, seq, struct } from '../../codec/compound.js';",
      "import { varuint } from '../../codec/primitives.js';",
      "export const V = struct('V', { items: seq(varuint, 8), next: option(varuint) });",
      'export const n = [1, 2].map((x) => x + 1);',
      "const text = 'a struct(field) in words';",
      "function make() { return struct('W', {}); }",
    ].join('\n');
    const marked = markPureCodecs(src);
    assert.equal(marked.split(MARK).length - 1, 4, marked);
    assert.match(marked, /= \/\* @__PURE__ \*\/ struct\('V'/);
    assert.match(marked, /items: \/\* @__PURE__ \*\/ seq\(/);
    assert.match(marked, /return \/\* @__PURE__ \*\/ struct\('W'/);
    assert.match(marked, /'a struct\(field\) in words'/);
    assert.equal(markPureCodecs('const m = map(1);'), 'const m = map(1);', 'map not imported from src/codec');
  });

  it('adds only comments to every source file', async () => {
    const files = await sources(join(ROOT, 'src'));
    let changed = 0;
    for (const f of files) {
      const source = await readFile(f, 'utf8');
      const marked = markPureCodecs(source);
      if (marked === source) continue;
      changed++;
      const plain = await transform(source, { loader: 'ts', format: 'esm' });
      const out = await transform(marked, { loader: 'ts', format: 'esm' });
      assert.equal(out.code.replaceAll(MARK, ''), plain.code.replaceAll(MARK, ''), f);
    }
    console.log(`# ${changed} of ${files.length} source files have codec constructions marked`);
    assert.ok(changed > 20, `${changed} files marked`);
  });

  it('lets a bundle of the client alone drop the view codecs it never reaches', async () => {
    const bundle = async (pure: boolean) => {
      const r = await build({
        stdin: {
          contents: "import { ToranaClient } from './src/sdk/index.ts'; console.log(ToranaClient);",
          resolveDir: ROOT,
          loader: 'ts',
        },
        bundle: true,
        minify: true,
        write: false,
        platform: 'browser',
        format: 'esm',
        conditions: ['torana-source', 'browser'],
        logLevel: 'silent',
        plugins: pure ? [pureCodecs()] : [],
      });
      const text = r.outputFiles[0]!.text;
      return { text, gzip: gzipSync(text).length };
    };
    const plain = await bundle(false);
    const pure = await bundle(true);
    console.log(
      `# ToranaClient alone, minified: ${(pure.gzip / 1024).toFixed(1)} KiB gzip with the marks, ` +
        `${(plain.gzip / 1024).toFixed(1)} KiB without`,
    );
    // A module's list view (its routes' answer): only its SDK reader reaches it.
    assert.ok(plain.text.includes('"TriggerList"'), 'the unmarked bundle keeps the unused view');
    assert.ok(!pure.text.includes('"TriggerList"'), 'the marked bundle drops it');
    assert.ok(pure.gzip < plain.gzip);
  });

  it("leaves the modules' configuration sections out of the SDK's bundle; the SDK still encodes", async () => {
    const bundle = async (plugins: unknown[]) => {
      const r = await build({
        stdin: {
          contents: [
            "import { TransactionBuilder, importKeyPair, instructions as ix } from './src/sdk/index.ts';",
            "import { moduleConfigSections } from './src/config/sections.ts';",
            "const key = importKeyPair('11'.repeat(32));",
            "const tx = new TransactionBuilder('chain', key.publicKeyText() + '@system')",
            "  .add(ix.registerDomain('wonderland'), ix.registerAssetDefinition('rose#wonderland', { scale: 2 }))",
            '  .createdAtMs(1)',
            '  .sign(key);',
            'export const result = { sections: moduleConfigSections().map((s) => s.name), hash: tx.hash };',
          ].join('\n'),
          resolveDir: ROOT,
          loader: 'ts',
        },
        bundle: true,
        minify: true,
        write: false,
        metafile: true,
        platform: 'neutral',
        format: 'esm',
        mainFields: ['module', 'main'],
        conditions: ['torana-source', 'browser'],
        logLevel: 'silent',
        plugins: plugins as never,
      });
      const inputs = Object.keys(r.metafile.inputs).filter((f) =>
        /^src\/modules\/[a-z]+\/config\.ts$/.test(f),
      );
      const dir = await mkdtemp(join(tmpdir(), 'torana-sdk-config-'));
      const file = join(dir, 'bundle.mjs');
      await writeFile(file, r.outputFiles[0]!.text);
      try {
        const { result } = (await import(pathToFileURL(file).href)) as {
          result: { sections: string[]; hash: string };
        };
        return { inputs, gzip: gzipSync(r.outputFiles[0]!.text).length, ...result };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    };
    const full = await bundle([pureCodecs()]);
    const sdk = await bundle([pureCodecs(), withoutModuleConfig()]);
    console.log(
      `# the SDK with a client and a transaction: ${(sdk.gzip / 1024).toFixed(1)} KiB gzip without the sections, ` +
        `${(full.gzip / 1024).toFixed(1)} KiB with ${full.sections.join(', ')}`,
    );
    assert.deepEqual(full.sections, ['conference', 'content', 'webhooks', 'connect', 'iso20022']);
    assert.deepEqual(full.inputs.length, 4);
    assert.deepEqual(sdk.sections, []);
    assert.deepEqual(sdk.inputs, []);
    assert.equal(sdk.hash, full.hash, 'the same transaction, byte for byte');
    assert.ok(sdk.gzip < full.gzip);
  });
});
