// Runs one doc page's runnable blocks (page-script.ts) as a newcomer would: in an empty working
// directory, with `torana` (and `npx torana`) on PATH running this checkout's CLI, against the node the
// page assumes (PAGE_SETUPS).

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { genesisHash } from '../../src/node/genesis-ceremony.js';
import { startNatsServer } from '../helpers/nats-server.js';
import { startPostgres } from '../helpers/postgres.js';
import { ROOT, tsEntryArgs } from '../helpers/ts-entry.js';
import type { DocBlock } from './extract.js';
import { decisionHere, namespacePrefix, removeNamespaces } from './host-needs.js';
import { lastLine, pageScript } from './page-script.js';

export interface PageSetup {
  /** What the page assumes, as it says so itself. */
  assumes: string;
  /**
   * 'quick-start': a node started as README.md's quick start leaves it (`npm start` in the working
   * directory: `torana start`, which initialises ./.torana/ on first run); client commands with no
   * flags reach it and sign as its admin. 'none': the page starts what it needs.
   */
  node: 'quick-start' | 'none';
  /** Commands run before the page's blocks: what the page says must exist first. */
  prelude?: string[];
  /**
   * Host paths the page names, longest first, and the paths in the working directory that stand for
   * them (as a reader trying the page on one machine would set them).
   */
  paths?: [string, string][];
  /** A NATS server with JetStream the page's commands reach as $NATS_URL (test/helpers/nats-server.ts). */
  nats?: boolean;
  /** A PostgreSQL server whose database `ledger` the page's commands reach as $LEDGER_DB (test/helpers/postgres.ts). */
  postgres?: boolean;
  /**
   * The hosts a page tells operators to name themselves, set here to local ones: $NODE_URL the page's
   * node, $INDEX_DB a second database `ledger_remote` of the page's PostgreSQL server, as a postgres://
   * URL (the form a remote database's address takes). Needs `postgres`.
   */
  remoteHosts?: boolean;
  /** The page's commands listen on the ports it names (else a node a command starts takes a free one). */
  fixedPorts?: boolean;
  /** Paths of this repository the page names, linked into the working directory. */
  links?: string[];
}

const QUICK_START: PageSetup = {
  assumes: 'a node started as in the README quick start (`npm start`), the CLI signing as its admin',
  node: 'quick-start',
};

/** Pages with runnable blocks that assume something else than QUICK_START. */
export const PAGE_SETUPS: Record<string, PageSetup> = {
  'README.md': {
    ...QUICK_START,
    assumes: `${QUICK_START.assumes}, and the ports of the local network (from 9100) free`,
    fixedPorts: true,
  },
  'docs/consensus.md': {
    assumes:
      'a checkout with its dependencies installed (`npm ci`), the ports of the local network (from 9100) free',
    node: 'none',
    fixedPorts: true,
  },
  'docs/conference.md': {
    ...QUICK_START,
    assumes: `${QUICK_START.assumes}, and the call's domain (Ids: "The domain must exist when the call is created"); the slow page: its private block proves with the zk circuits (90 s measured)`,
    prelude: ['torana domain register wonderland'],
  },
  'docs/operations.md': {
    ...QUICK_START,
    assumes: `${QUICK_START.assumes} in /var/lib/torana with a block after genesis, the four operators' genesis entries sent to the coordinator (node1.json … node4.json), two new nodes' directories set up for the network (/var/lib/torana-new, /var/lib/torana-new2: \`torana genesis adopt\` of its genesis, whose hash the page's commands read as $DOC_GENESIS_HASH), and ./<path> for each host path the page names`,
    prelude: [
      'for i in 1 2 3 4; do torana genesis entry --dir "operator-$i" --chain-id acme-net --address "node$i.acme.example:9200" --out "node$i.json"; done',
      // As step 3 of "Joining from a snapshot" says: keys and config.toml, the network's genesis adopted.
      'for d in torana-new torana-new2; do mkdir -m 0700 "$d" && torana genesis adopt .torana/genesis.json --hash "$DOC_GENESIS_HASH" --dir "$d" --listen 127.0.0.1:0 > /dev/null; done',
      'torana domain register wonderland',
    ],
    paths: [
      ['/var/lib/torana-acme', './torana-acme'],
      ['/var/lib/torana-new2', './torana-new2'],
      ['/var/lib/torana-new', './torana-new'],
      ['/var/lib/torana', './.torana'],
      ['/backups/', './backups/'],
      ['/tmp/torana.snap', './torana.snap'],
      ['/srv/', './srv/'],
    ],
  },
  'docs/export.md': {
    ...QUICK_START,
    assumes: `${QUICK_START.assumes}, and a NATS server with JetStream at $NATS_URL`,
    nats: true,
  },
  'docs/indexer.md': {
    ...QUICK_START,
    assumes: `${QUICK_START.assumes}, a PostgreSQL database at $LEDGER_DB, another at $INDEX_DB (for a remote one), the node as $NODE_URL, and ./.torana for /var/lib/torana`,
    postgres: true,
    remoteHosts: true,
    paths: [['/var/lib/torana', './.torana']],
  },
  'docs/iso20022.md': {
    assumes:
      'a checkout of the repository (examples/iso20022/); the walk-through initialises and starts its node',
    node: 'none',
    links: ['examples'],
  },
};

export function setupOf(page: string): PageSetup {
  return PAGE_SETUPS[page] ?? QUICK_START;
}

/** A libpq conninfo (`host=… port=… user=… dbname=…`, a unix socket directory as host) as a URL. */
export function postgresUrl(conninfo: string): string {
  const kv = Object.fromEntries(conninfo.split(' ').map((p) => p.split('=', 2) as [string, string]));
  const host = encodeURIComponent(kv['host'] ?? '');
  return `postgres://${kv['user'] ?? ''}@/${kv['dbname'] ?? ''}?host=${host}&port=${kv['port'] ?? '5432'}`;
}

/** The CLI as `torana` (the test bundle when the run has one, else the sources under tsx). */
function toranaShim(): string {
  const args = tsEntryArgs('test/helpers/torana-cli.ts').map((a) =>
    a === 'tsx'
      ? pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href
      : a.endsWith('.ts') || a.endsWith('.js')
        ? isAbsolute(a)
          ? a
          : resolve(ROOT, a)
        : a,
  );
  const flags = args[0] === '--import' ? ['--conditions=torana-source'] : [];
  const words = [process.execPath, ...flags, ...args].map((w) => `'${w}'`).join(' ');
  return `#!/bin/sh\nexec ${words} "$@"\n`;
}

const NPX_SHIM = `#!/bin/sh
if [ "$1" = torana ]; then shift; exec torana "$@"; fi
echo "npx $1: only npx torana runs in a doc example (mark the block skip)" >&2; exit 127
`;
/** curl failing on an HTTP error (a doc's curl that gets a 404 fails its page), the rest as it is. */
function curlShim(): string {
  const real = process.env.PATH?.split(':')
    .map((d) => join(d, 'curl'))
    .find((f) => existsSync(f));
  return `#!/bin/sh\nexec '${real ?? 'curl-not-installed'}' --fail-with-body "$@"\n`;
}

const NPM_SHIM = `#!/bin/sh
echo "npm $1: npm does not run in a doc example (mark the block skip)" >&2; exit 127
`;

export interface PageRun {
  code: number | null;
  out: string;
  err: string;
  /** `<page>:<line>` of the last command that ran (the failing one when code is not 0). */
  at: string | undefined;
  commands: number;
  /** Blocks marked `run needs="…"` that did not run here, with why (`<page>:<line>: reason`). */
  skipped: string[];
}

function collect(child: ChildProcess): Promise<{ code: number | null; out: string; err: string }> {
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (err += d));
  return new Promise((done) => child.on('close', (code) => done({ code, out, err })));
}

/** Stops a process group (the script's background commands too), SIGKILL after `graceMs`. */
async function stopGroup(child: ChildProcess, ended: Promise<unknown>, graceMs = 20_000): Promise<void> {
  const kill = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // already gone
    }
  };
  kill('SIGTERM');
  const timer = setTimeout(() => kill('SIGKILL'), graceMs);
  await ended;
  clearTimeout(timer);
}

/** Starts the quick start's node in `dir` (./.torana) and returns its URL once it listens. */
async function startQuickStartNode(dir: string, env: NodeJS.ProcessEnv) {
  const child = spawn('torana', ['start', '--json'], { cwd: dir, env, detached: true });
  const ended = collect(child);
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  const url = await new Promise<string>((ok, fail) => {
    child.stdout?.on('data', () => {
      // The line `start --json` prints once it listens (the node's log lines are JSON too).
      for (const line of out.split('\n').filter((l) => l.startsWith('{') && l.endsWith('}'))) {
        const v = JSON.parse(line) as { url?: string; chain_id?: string };
        if (v.url !== undefined && v.chain_id !== undefined) ok(v.url);
      }
    });
    void ended.then((r) => fail(new Error(`the page's node ended (${r.code}): ${r.err}`)));
  });
  return { url, stop: () => stopGroup(child, ended) };
}

/** Runs the page's runnable blocks; `timeoutMs` bounds a hung page (its processes are killed). */
export async function runPage(page: string, all: readonly DocBlock[], timeoutMs = 540_000): Promise<PageRun> {
  const setup = setupOf(page);
  const here = all.map((b) => ({ ...b, decision: decisionHere(b.decision) }));
  const skipped = here.flatMap((b, i) =>
    b.decision.kind === 'skip' && all[i]!.decision.kind === 'run'
      ? [`${b.page}:${b.line}: ${b.decision.reason}`]
      : [],
  );
  const blocks = here.filter((b) => b.decision.kind === 'run');
  const ns = namespacePrefix();
  const dir = await mkdtemp(join(tmpdir(), 'torana-doc-'));
  const bin = join(dir, '.doc-bin');
  const logs = join(dir, '.doc-logs');
  await mkdir(bin);
  await mkdir(logs);
  for (const [name, text] of [
    ['torana', toranaShim()],
    ['npx', NPX_SHIM],
    ['npm', NPM_SHIM],
    ['curl', curlShim()],
  ] as const) {
    await writeFile(join(bin, name), text);
    await chmod(join(bin, name), 0o755);
  }
  for (const l of setup.links ?? []) await symlink(join(ROOT, l), join(dir, l));
  // Port 0: a node the page starts listens on a free port; the CLI finds it through <dir>/node.json.
  const nats = setup.nats === true ? await startNatsServer() : undefined;
  const pg = setup.postgres === true ? await startPostgres() : undefined;
  await pg?.createDatabase('ledger');
  if (setup.remoteHosts === true) await pg?.createDatabase('ledger_remote');
  const env = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    TORANA_GATEWAY_PORT: '0',
    DOC_EXAMPLE_LOGS: logs,
    NS: ns,
    ...(nats === undefined ? {} : { NATS_URL: nats.url }),
    ...(pg === undefined ? {} : { LEDGER_DB: pg.conninfo('ledger') }),
  };
  const node = setup.node === 'quick-start' ? await startQuickStartNode(dir, env) : undefined;
  // The hash a coordinator announces with the quick-start node's genesis (for `genesis adopt` in a prelude).
  if (node !== undefined)
    Object.assign(env, {
      DOC_GENESIS_HASH: genesisHash(await readFile(join(dir, '.torana', 'genesis.json'))),
    });
  if (setup.remoteHosts === true && pg !== undefined && node !== undefined) {
    Object.assign(env, { NODE_URL: node.url, INDEX_DB: postgresUrl(pg.conninfo('ledger_remote')) });
  }
  try {
    const script = pageScript(blocks, { nodeUrl: node?.url, prelude: setup.prelude, paths: setup.paths });
    await writeFile(join(dir, '.doc-example.sh'), script);
    const { TORANA_GATEWAY_PORT: _free, ...fixed } = env;
    const child = spawn('bash', [join(dir, '.doc-example.sh')], {
      cwd: dir,
      env: setup.fixedPorts === true ? fixed : env,
      detached: true,
    });
    const ended = collect(child);
    const timer = setTimeout(() => void stopGroup(child, ended, 5_000), timeoutMs);
    const r = await ended;
    clearTimeout(timer);
    await stopGroup(child, Promise.resolve());
    const commands = (script.match(/^echo '@@doc-example docs|^echo '@@doc-example README/gm) ?? []).length;
    return { ...r, at: lastLine(r.err), commands, skipped };
  } finally {
    removeNamespaces(ns);
    await node?.stop();
    await nats?.stop();
    await pg?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The last lines of a failed page's output, for the assertion message. */
export function tail(s: string, lines = 25): string {
  return s.trimEnd().split('\n').slice(-lines).join('\n');
}
