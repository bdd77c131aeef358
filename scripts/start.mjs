// `npm start`: runs the node from the compiled output, compiling first only when a source is newer than
// the last build (or there is none), so a start with an up-to-date build does not wait for tsc.
// Arguments after `npm start --` go to `torana start`.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What the build compiles (tsconfig.build.json): src/**\/*.ts but tests and a browser UI (a folder
 * with a tsconfig.json of its own, type-checked apart and bundled by its module's build).
 */
function* sources(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (existsSync(join(p, 'tsconfig.json'))) continue;
      yield* sources(p);
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) yield p;
  }
}

/**
 * The first input newer than the build under `root` (a source, a tsconfig, package.json), or the
 * missing build output; undefined when the build is up to date.
 */
export function staleInput(root) {
  const stamp = join(root, 'dist', '.tsbuildinfo');
  const entry = join(root, 'dist', 'cli', 'main.js');
  if (!existsSync(stamp)) return stamp;
  if (!existsSync(entry)) return entry;
  const built = statSync(stamp).mtimeMs;
  const configs = ['tsconfig.json', 'tsconfig.build.json', 'package.json'].map((f) => join(root, f));
  for (const f of [...configs.filter((c) => existsSync(c)), ...sources(join(root, 'src'))])
    if (statSync(f).mtimeMs > built) return f;
  return undefined;
}

function build(root) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  // tsc leaves its build info alone when nothing changed: mark the build as current all the same.
  const now = new Date();
  utimesSync(join(root, 'dist', '.tsbuildinfo'), now, now);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const stale = staleInput(root);
  if (stale !== undefined) {
    process.stderr.write(`building first: ${stale} is missing or newer than the last build\n`);
    build(root);
  }
  const node = spawn(process.execPath, [join(root, 'bin', 'torana.js'), 'start', ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
  });
  // The node shuts down on its own signals: pass them on and wait for it to end.
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => node.kill(sig));
  node.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
}
