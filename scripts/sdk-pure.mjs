// An esbuild plugin for the SDK's bundles (scripts/build-sdk.mjs, scripts/sdk-startup.mjs): marks each
// call of a codec constructor (src/codec: struct, enumOf, seq, …) in the SDK's sources as pure
// (`/* @__PURE__ */`, which esbuild keeps in its output), so that an application's bundler drops a
// codec nothing it uses reaches — a module's view and row codecs when the page never reads that
// module's routes. A codec constructor builds an object and does nothing else, so dropping one whose
// value is unused changes nothing; calls whose value is used are kept as they are. Only comments are
// added: the code (and the bytes it writes) is the sources' own.
import { readFile } from 'node:fs/promises';

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
