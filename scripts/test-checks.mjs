// The checks `npm test` runs besides the test files: lint + format (biome) and the type checks (tsc, the
// main project and each module's browser UI). They run beside the test files, not before them, at a
// lower CPU priority: the test files keep the cores and the checks take what the files leave idle (the
// runner's lanes wait on sockets and child processes part of the time). Each check writes to its
// own file, so nothing waits on a pipe while the runner holds the terminal; a check that fails is
// printed as soon as it ends and fails the run once the test files are done.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Niceness of the checks: below the test files, but not so low that a machine busy with other work
 * starves them past the end of the test files (at 10 a check gets ~1 % of a core beside eight busy
 * processes; at 5, ~3 %: tsc's ~30 s of CPU still ends inside a loaded run).
 */
const CHECK_NICENESS = 5;

/** The checks, each a command line, in the order they are reported. */
export function checkCommands(root) {
  // The tools' own entry points under plain node (npx would add a process and its start to each).
  const tool = (path) => join(root, 'node_modules', path);
  // Incremental: a run after a small change checks again only what it touched (.cache/tsc/, git-ignored).
  const tsc = (name, project) => ({
    name,
    cmd: process.execPath,
    args: [
      tool('typescript/bin/tsc'),
      '-p',
      project,
      '--noEmit',
      '--incremental',
      '--tsBuildInfoFile',
      `.cache/tsc/${name.replaceAll(' ', '-')}.tsbuildinfo`,
    ],
  });
  const commands = [
    { name: 'biome', cmd: process.execPath, args: [tool('@biomejs/biome/bin/biome'), 'check', '.'] },
    tsc('tsc', 'tsconfig.json'),
  ];
  // A module's browser UI (`src/modules/<name>/ui/tsconfig.json`, the DOM library) is checked apart.
  for (const name of readdirSync(join(root, 'src/modules')).sort())
    if (existsSync(join(root, 'src/modules', name, 'ui/tsconfig.json')))
      commands.push(tsc(`tsc ${name} ui`, `src/modules/${name}/ui/tsconfig.json`));
  return commands;
}

/**
 * Starts every check at once, each in its own process at CHECK_NICENESS. Returns a promise of the
 * outcomes in checkCommands' order: `{ name, ok, seconds, output }`. `onFailure` hears a failed check
 * as soon as it ends.
 */
export function startChecks(root, env, onFailure = () => {}) {
  const dir = mkdtempSync(join(tmpdir(), 'torana-checks-'));
  const started = performance.now();
  const runs = checkCommands(root).map(({ name, cmd, args }, i) => {
    const outPath = join(dir, `${i}.txt`);
    const fd = openSync(outPath, 'w');
    return new Promise((resolve) => {
      const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', fd, fd] });
      closeSync(fd);
      try {
        if (child.pid !== undefined) setPriority(child.pid, CHECK_NICENESS);
      } catch {
        // Lowering a priority is allowed to every user; a system that refuses it runs the check as is.
      }
      const done = (ok, extra = '') => {
        const outcome = {
          name,
          ok,
          seconds: (performance.now() - started) / 1000,
          output: readFileSync(outPath, 'utf8') + extra,
        };
        if (!ok) onFailure(outcome);
        resolve(outcome);
      };
      child.on('error', (e) => done(false, `\n${name}: ${e.message}\n`));
      child.on('exit', (code, signal) => done(code === 0, signal === null ? '' : `\n${name}: ${signal}\n`));
    });
  });
  return Promise.all(runs).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** A failed check as printed: its name, then its output. */
export function failureText(outcome) {
  return `\n── check failed: ${outcome.name} ──\n${outcome.output.trimEnd()}\n`;
}
