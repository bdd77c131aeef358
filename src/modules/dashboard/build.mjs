#!/usr/bin/env node
// Builds the dashboard (ui/ beside this file) into dist/dashboard/www/: one ES module and one style sheet,
// minified, with content hashes in their names, and an index.html naming them. Run by `npm run build`
// and by `prepare` (so `npm ci` builds it); no network, no CDN: everything comes from node_modules.
// The other modules' additions (ui/extensions.ts) and the UI parts they build with (`torana:dashboard`,
// ui/kit.ts) come from module-dashboards.mjs.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { moduleDashboardsPlugin } from './module-dashboards.mjs';

const root = new URL('../../..', import.meta.url).pathname;

const out = join(root, 'dist/dashboard/www');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints: [new URL('ui/main.ts', import.meta.url).pathname],
  plugins: [moduleDashboardsPlugin],
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  entryNames: '[name]-[hash]',
  outdir: out,
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const files = Object.keys(result.metafile.outputs).map((p) => basename(p));
const js = files.find((f) => f.endsWith('.js'));
const css = files.find((f) => f.endsWith('.css'));
if (js === undefined || css === undefined)
  throw new Error(`dashboard build: expected a .js and a .css, got ${files}`);

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>torana dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${css}">
<script type="module" src="${js}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The dashboard needs JavaScript; the node's JSON routes are listed at <a href="../openapi.json">/openapi.json</a>.</noscript>
</body>
</html>
`;
writeFileSync(join(out, 'index.html'), html);
console.log(`dashboard: ${[css, js].join(', ')} → ${out}`);
