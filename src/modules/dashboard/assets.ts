// The dashboard's built files (build.mjs writes them to dist/dashboard/www/), read once
// into memory when the node starts. A request can only name a file of this table: there is no path
// from a URL to the file system, so no traversal. Each file is kept as is and gzip-compressed.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * The package root: the nearest folder above `fileUrl` that holds a package.json. The same from the
 * sources (src/modules/dashboard/), the build (dist/modules/dashboard/) and the test runner's bundle of
 * child-process entries (node_modules/.torana-test-<pid>/, scripts/test-bundle.mjs), whatever their depth.
 */
export function packageRoot(fileUrl: string): string {
  const start = dirname(fileURLToPath(fileUrl));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

/** Where the build writes the bundle: `<package root>/dist/dashboard/www/`. */
export const BUILT_ASSETS_DIR = join(packageRoot(import.meta.url), 'dist', 'dashboard', 'www', sep);

/** Content types of the files the build writes; any other extension is not served. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** Largest file and file count read from the folder (a guard against pointing it at the wrong place). */
export const ASSET_BYTES_MAX = 4 * 1024 * 1024;
export const ASSET_FILES_MAX = 64;

export interface Asset {
  readonly type: string;
  readonly body: Buffer;
  readonly gzip: Buffer;
  /** Strong validator of the content. */
  readonly etag: string;
  /** Names with a content hash (`index-3F2A.js`) never change: cached for a year, immutable. */
  readonly immutable: boolean;
}

export type AssetTable = ReadonlyMap<string, Asset>;

const HASHED_NAME = /-[A-Z0-9]{8}\.[a-z]+$/;

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/**
 * Reads every servable file under `dir` into a table keyed by its path relative to `dir` (with `/`).
 * Undefined when the folder has no `index.html` (the dashboard was not built).
 */
export function loadAssets(dir: string): AssetTable | undefined {
  let files: string[];
  try {
    files = walk(dir, []);
  } catch {
    return undefined;
  }
  const table = new Map<string, Asset>();
  for (const file of files) {
    const type = CONTENT_TYPES[extname(file)];
    if (type === undefined) continue;
    if (table.size >= ASSET_FILES_MAX)
      throw new Error(`dashboard assets: more than ${ASSET_FILES_MAX} files in ${dir}`);
    const body = readFileSync(file);
    if (body.length > ASSET_BYTES_MAX)
      throw new Error(`dashboard assets: ${file} is over ${ASSET_BYTES_MAX} bytes`);
    const name = relative(dir, file).split(sep).join('/');
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    table.set(name, {
      type,
      body,
      gzip: gzipSync(body, { level: 9 }),
      etag,
      immutable: HASHED_NAME.test(name),
    });
  }
  return table.has('index.html') ? table : undefined;
}

/** Compressed bytes of everything the first load fetches: index.html and what it names. */
export function firstLoadGzipBytes(table: AssetTable): number {
  const index = table.get('index.html');
  if (index === undefined) return 0;
  const html = index.body.toString('utf8');
  let total = index.gzip.length;
  for (const [name, asset] of table) {
    if (name !== 'index.html' && html.includes(`"${name}"`)) total += asset.gzip.length;
  }
  return total;
}
