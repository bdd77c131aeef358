// The SDK package marks its codec constructions pure (scripts/sdk-pure.mjs, used by scripts/build-sdk.mjs),
// so an application's bundler drops the codecs its code never reaches. Shown here: marking adds only
// comments (esbuild's output of every source file, marks stripped, is that of the unmarked file: no mark
// inside a string, a template or a declaration), and a bundle of the SDK client alone, from marked
// sources, leaves out view codecs nothing it uses reaches and is smaller than one from the sources as
// they are. And the SDK's builds leave out the modules' configuration sections, which no SDK code reads:
// the registry then adds none, and the bundle still builds, signs and encodes transactions. They also leave
// out the node's own parts of the wire (rejection meanings, module weights): every code keeps its number,
// and the bundle signs and encodes the same bytes.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, transform } from 'esbuild';
import {
  markPureCodecs,
  pureCodecs,
  stripServerWire,
  withoutModuleConfig,
  withoutServerWire,
  // @ts-expect-error: a plain ES module script without types
} from '../../scripts/sdk-pure.mjs';

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
    assert.deepEqual(full.sections, [
      'conference',
      'content',
      'webhooks',
      'explorer',
      'history',
      'connect',
      'iso20022',
      'telemetry',
      'operator',
    ]);
    assert.deepEqual(full.inputs.length, 8);
    assert.deepEqual(sdk.sections, []);
    assert.deepEqual(sdk.inputs, []);
    assert.equal(sdk.hash, full.hash, 'the same transaction, byte for byte');
    assert.ok(sdk.gzip < full.gzip);
  });

  it('gives the rejection meanings as empty texts and the weight tables as {}, and nothing else', async () => {
    const wire = [
      "import { row } from '../../model/weights.js';",
      'export const w = declareModuleWire({',
      "  name: 'm',",
      "  instructions: { DoIt: { note: 'kept' } },",
      '  rejections: {',
      "    m_invalid: 'the input is out of range',",
      '    m_gone:',
      "      'no such thing',",
      '  },',
      '  weights: { DoIt: row(40) },',
      "  docs: 'docs/conference.md',",
      '});',
    ].join('\n');
    const file = '/x/src/modules/m/wire.ts';
    assert.equal(
      stripServerWire(wire, file),
      wire
        .replace("'the input is out of range'", "''")
        .replace("'no such thing'", "''")
        .replace('{ DoIt: row(40) }', '{}'),
    );
    const named = wire.replace("'no such thing'", 'GONE');
    assert.throws(() => stripServerWire(named, file), /the meaning of m_gone is not a string literal/);
    const noWire = "export const T = struct('T', { rejections: { a: 'b' } });";
    assert.equal(stripServerWire(noWire, file), noWire, 'only the argument of declareModuleWire');

    const coreFile = join(ROOT, 'src/model/rejections.ts');
    const core = await readFile(coreFile, 'utf8');
    const stripped = stripServerWire(core, coreFile);
    assert.ok(core.includes("domain_not_found: [301, 'no such domain']"));
    assert.ok(stripped.includes("domain_not_found: [301, '']"), 'the number stays');
    assert.ok(!stripped.includes('no such domain'));
    assert.throws(() => stripServerWire('export const X = 1;', coreFile), /no CORE_REJECTIONS/);

    const weightsFile = join(ROOT, 'src/model/weights.ts');
    const weights = await readFile(weightsFile, 'utf8');
    assert.ok(weights.includes('  RegisterPeer: row(4_000),'));
    const noWeights = stripServerWire(weights, weightsFile);
    assert.match(noWeights, /const CORE_WEIGHTS = \{\} satisfies/);
    assert.ok(!noWeights.includes('RegisterPeer: row(4_000)'));
    const start = weights.indexOf('const CORE_WEIGHTS = {') + 'const CORE_WEIGHTS = '.length;
    const end = weights.indexOf('} satisfies', start) + 1;
    assert.equal(noWeights, `${weights.slice(0, start)}{}${weights.slice(end)}`, 'only the table changes');
  });

  it("leaves the node's rejection meanings and weights out of the SDK's bundle; the SDK still encodes", async () => {
    const bundle = async (plugins: unknown[]) => {
      const r = await build({
        stdin: {
          contents: [
            "import { TransactionBuilder, importKeyPair, instructions as ix } from './src/sdk/index.ts';",
            "import { decode, encode } from './src/codec/frame.ts';",
            "import { DEFAULT_DECODE_LIMITS } from './src/codec/limits.ts';",
            "import { RejectionCodec } from './src/model/rejections.ts';",
            "import { WEIGHTS } from './src/model/weights.ts';",
            "import { toHex } from './src/util/hex.ts';",
            "const key = importKeyPair('11'.repeat(32));",
            "const account = key.publicKeyText() + '@system';",
            "const tx = new TransactionBuilder('chain', account)",
            "  .add(ix.registerDomain('wonderland'), ix.registerAccountAlias('alice@wonderland', account))",
            '  .createdAtMs(1)',
            '  .sign(key);',
            "const rejection = encode(RejectionCodec, { code: 'alias_invalid', instructionIndex: 1, message: 'm' });",
            'export const result = {',
            '  hash: tx.hash,',
            '  bytes: toHex(tx.bytes),',
            '  rejection: toHex(rejection),',
            '  decoded: decode(RejectionCodec, rejection, DEFAULT_DECODE_LIMITS),',
            '  weighed: Object.keys(WEIGHTS),',
            '};',
          ].join('\n'),
          resolveDir: ROOT,
          loader: 'ts',
        },
        bundle: true,
        minify: true,
        write: false,
        platform: 'neutral',
        format: 'esm',
        mainFields: ['module', 'main'],
        conditions: ['torana-source', 'browser'],
        logLevel: 'silent',
        plugins: plugins as never,
      });
      const text = r.outputFiles[0]!.text;
      const dir = await mkdtemp(join(tmpdir(), 'torana-sdk-wire-'));
      const file = join(dir, 'bundle.mjs');
      await writeFile(file, text);
      try {
        const { result } = (await import(pathToFileURL(file).href)) as { result: Record<string, unknown> };
        return { text, gzip: gzipSync(text).length, result };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    };
    const full = await bundle([pureCodecs(), withoutModuleConfig()]);
    const sdk = await bundle([withoutServerWire(), pureCodecs(), withoutModuleConfig()]);
    console.log(
      `# the SDK with a transaction and a rejection: ${(sdk.gzip / 1024).toFixed(1)} KiB gzip without the ` +
        `meanings and weights, ${(full.gzip / 1024).toFixed(1)} KiB with them`,
    );
    // A core meaning, a module's meaning and a module's weight formula term.
    const texts = [
      'no such domain',
      'the alias literal is malformed',
      '+ private ? verify + fee ? (verify + poolAppend)',
    ];
    for (const t of texts) {
      assert.ok(full.text.includes(t), `the full bundle holds "${t}"`);
      assert.ok(!sdk.text.includes(t), `the SDK's bundle leaves "${t}" out`);
    }
    const { weighed, ...same } = sdk.result;
    assert.deepEqual(weighed, [], 'the SDK weighs no instruction kind');
    assert.ok((full.result.weighed as string[]).includes('RegisterPeer'));
    assert.ok((full.result.weighed as string[]).includes('RegisterAccountAlias'));
    assert.deepEqual({ ...same, weighed: full.result.weighed }, full.result, 'the same bytes');
    assert.deepEqual(full.result.decoded, {
      ok: true,
      value: { code: 'alias_invalid', instructionIndex: 1, message: 'm' },
    });
    assert.ok(sdk.gzip < full.gzip - 1024, `${full.gzip - sdk.gzip} bytes gzip saved`);
  });
});
