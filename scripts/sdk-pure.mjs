// An esbuild plugin for the SDK's bundles (scripts/build-sdk.mjs, scripts/sdk-startup.mjs): marks each
// call of a codec constructor (src/codec: struct, enumOf, seq, …) in the SDK's sources as pure
// (`/* @__PURE__ */`, which esbuild keeps in its output), so that an application's bundler drops a
// codec nothing it uses reaches — a module's view and row codecs when the page never reads that
// module's routes. A codec constructor builds an object and does nothing else, so dropping one whose
// value is unused changes nothing; calls whose value is used are kept as they are. Only comments are
// added: the code (and the bytes it writes) is the sources' own.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The constructors of src/codec that build a codec and have no other effect. */
export const CODEC_CONSTRUCTORS = Object.freeze([
  'biguint',
  'bytes',
  'enumOf',
  'fixedBytes',
  'jsonValue',
  'lazy',
  'map',
  'named',
  'openEnum',
  'option',
  'seq',
  'string',
  'struct',
  'textType',
]);

const IMPORT = /import\s*\{([^}]*)\}\s*from\s*'[^']*\/codec\/[a-z-]+\.js'/g;

/** The source with each call of a codec constructor it imports from src/codec marked pure. */
export function markPureCodecs(source) {
  const names = new Set();
  for (const m of source.matchAll(IMPORT))
    for (const part of m[1].split(',')) {
      const name = part.trim();
      if (CODEC_CONSTRUCTORS.includes(name)) names.add(name);
    }
  if (names.size === 0) return source;
  // A call in an expression position: after `=`, `(`, `,`, `:`, `[`, `?`, `{`, `=>` or `return`.
  const call = new RegExp(`(?<=(?:[=(,:[?{]|=>|\\breturn)\\s*)(${[...names].join('|')})\\(`, 'g');
  return source.replace(call, '/* @__PURE__ */ $1(');
}

export function pureCodecs() {
  return {
    name: 'torana-pure-codecs',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const marked = markPureCodecs(source);
        return marked === source ? undefined : { contents: marked, loader: 'ts' };
      });
    },
  };
}

/**
 * The SDK reads no configuration, so its builds leave the modules' configuration sections out (their
 * keys, defaults and docs: a few KiB of an application's startup code). The registry's imports of
 * `./<name>/config.js` (src/modules/registry.ts) resolve to a module that gives each constant that file
 * exports as `undefined`: the registry then adds no section for the entry, as for a module without one.
 * Only the registry's imports are redirected; a bundle that reached a section through any other file
 * would still hold it.
 */
export function withoutModuleConfig() {
  return {
    name: 'torana-sdk-without-module-config',
    setup(b) {
      b.onResolve({ filter: /^\.\/[a-z0-9-]+\/config\.js$/ }, (args) => {
        if (!/[\\/]src[\\/]modules[\\/]registry\.ts$/.test(args.importer)) return undefined;
        const path = join(dirname(args.importer), args.path.replace(/\.js$/, '.ts'));
        return { path, namespace: 'torana-sdk-no-config' };
      });
      b.onLoad({ filter: /.*/, namespace: 'torana-sdk-no-config' }, async (args) => {
        const names = [...(await readFile(args.path, 'utf8')).matchAll(/^export const (\w+)/gm)].map(
          (m) => m[1],
        );
        return { contents: names.map((n) => `export const ${n} = undefined;`).join('\n'), loader: 'js' };
      });
    },
  };
}
