// An esbuild plugin for the SDK's bundles (scripts/build-sdk.mjs, scripts/sdk-startup.mjs): marks each
// call of a codec constructor (src/codec: struct, enumOf, seq, …) in the SDK's sources as pure
// (`/* @__PURE__ */`, which esbuild keeps in its output), so that an application's bundler drops a
// codec nothing it uses reaches — a module's view and row codecs when the page never reads that
// module's routes. A codec constructor builds an object and does nothing else, so dropping one whose
// value is unused changes nothing; calls whose value is used are kept as they are. Only comments are
// added: the code (and the bytes it writes) is the sources' own.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import ts from 'typescript';

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

/**
 * Two parts of the ledger's wire are read only by the node: the rejection meanings (src/model/rejections.ts
 * `CORE_REJECTIONS`, each module's `rejections` in its `wire.ts`), the messages the executor commits for a
 * rejection made without one (`reject`) and the gateway lists, and the instruction weights (the core's
 * `CORE_WEIGHTS` in src/model/weights.ts, each module's `weights` in its `wire.ts`), which admission, the
 * block builder and the executor compute. The SDK reads neither: a rejection it reports carries the
 * message its block committed, and it weighs nothing. So the SDK's builds give every meaning as `''` (each
 * code stays declared, with its number) and the weight tables as `{}`: a few KiB of text and rules out of
 * an application's startup code. The source is parsed (TypeScript's parser); a meaning written as anything
 * but a string literal, or a `CORE_REJECTIONS` or `CORE_WEIGHTS` not found, fails the build rather than
 * being kept or dropped silently. Nothing else of the file changes.
 */
export function stripServerWire(source, file) {
  const isCore = /[\\/]src[\\/]model[\\/]rejections\.ts$/.test(file);
  const isWeights = /[\\/]src[\\/]model[\\/]weights\.ts$/.test(file);
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  /** [start, end, replacement] of each edit. */
  const edits = [];
  const name = (p) => p.name.getText(sf);
  const blank = (node, what) => {
    if (!ts.isStringLiteral(node) && !ts.isNoSubstitutionTemplateLiteral(node))
      throw new Error(`${file}: ${what} is not a string literal`);
    edits.push([node.getStart(sf), node.getEnd(), "''"]);
  };
  const unwrap = (node) => {
    let n = node;
    while (ts.isAsExpression(n) || ts.isSatisfiesExpression(n) || ts.isParenthesizedExpression(n))
      n = n.expression;
    return n;
  };
  const properties = (node, what) => {
    const obj = unwrap(node);
    if (!ts.isObjectLiteralExpression(obj)) throw new Error(`${file}: ${what} is not an object literal`);
    return obj.properties.map((p) => {
      if (!ts.isPropertyAssignment(p)) throw new Error(`${file}: ${what} holds a ${ts.SyntaxKind[p.kind]}`);
      return p;
    });
  };
  let found = false;
  const visit = (node) => {
    if (isCore && ts.isVariableDeclaration(node) && node.name.getText(sf) === 'CORE_REJECTIONS') {
      found = true;
      for (const p of properties(node.initializer, 'CORE_REJECTIONS')) {
        const pair = unwrap(p.initializer);
        if (!ts.isArrayLiteralExpression(pair) || pair.elements.length !== 2)
          throw new Error(`${file}: CORE_REJECTIONS.${name(p)} is not [number, meaning]`);
        blank(pair.elements[1], `the meaning of ${name(p)}`);
      }
    } else if (isWeights && ts.isVariableDeclaration(node) && node.name.getText(sf) === 'CORE_WEIGHTS') {
      found = true;
      const table = unwrap(node.initializer);
      if (!ts.isObjectLiteralExpression(table))
        throw new Error(`${file}: CORE_WEIGHTS is not an object literal`);
      edits.push([table.getStart(sf), table.getEnd(), '{}']);
    } else if (
      !isCore &&
      !isWeights &&
      ts.isCallExpression(node) &&
      node.expression.getText(sf) === 'declareModuleWire' &&
      node.arguments.length === 1
    ) {
      for (const p of properties(node.arguments[0], 'the module wire'))
        if (name(p) === 'rejections') {
          found = true;
          for (const m of properties(p.initializer, 'rejections'))
            blank(m.initializer, `the meaning of ${name(m)}`);
        } else if (name(p) === 'weights') {
          found = true;
          edits.push([p.initializer.getStart(sf), p.initializer.getEnd(), '{}']);
        }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (isCore && !found) throw new Error(`${file}: no CORE_REJECTIONS`);
  if (isWeights && !found) throw new Error(`${file}: no CORE_WEIGHTS`);
  let out = source;
  for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0]))
    out = `${out.slice(0, start)}${text}${out.slice(end)}`;
  return out;
}

/**
 * The SDK's builds without the node's own parts of the wire (`stripServerWire`): the core's rejection
 * meanings and weights (src/model/rejections.ts, src/model/weights.ts) and each module's
 * (`src/modules/<name>/wire.ts`).
 * esbuild takes the first plugin that loads a file, so this one also marks the codecs of the files it
 * loads (`markPureCodecs`), and comes before `pureCodecs()` in a build's plugin list.
 */
export function withoutServerWire() {
  return {
    name: 'torana-sdk-without-server-wire',
    setup(b) {
      b.onLoad(
        { filter: /[\\/]src[\\/](modules[\\/][a-z0-9-]+[\\/]wire|model[\\/](rejections|weights))\.ts$/ },
        async (args) => {
          const source = await readFile(args.path, 'utf8');
          const out = markPureCodecs(stripServerWire(source, args.path));
          return out === source ? undefined : { contents: out, loader: 'ts' };
        },
      );
    },
  };
}
