// One page's runnable shell blocks as one `bash -e` script, in page order, so that variables and files
// one command makes are there for the next (a walk-through: create, then use the id).
//
// Before each command the script writes `@@doc-example <page>:<line>` to stderr, so a failure names the
// line of the doc. A background command (extract.ts) writes to a log of its own and is given until its
// first output (at most BACKGROUND_SETTLE_S; `torana start`: until it listens, `torana testnet up`: until
// every peer is up with a leader, at most START_SETTLE_S)
// before the page goes on (a follower that prints nothing until an event is up by then); one that has
// ended with an error by then, or by the end of the page, fails the page; those still running at the
// end are stopped. The docs' default address (127.0.0.1:8080) stands for the page's node, and the host
// paths a page names (/var/lib/torana, /backups) for paths in its working directory (run-page.ts).

import { blockCommands, type DocBlock, placeholders } from './extract.js';

/** How long a background `torana start` is given to listen, and any other background command to print. */
export const START_SETTLE_S = 120;
export const BACKGROUND_SETTLE_S = 10;
export const LINE_MARK = '@@doc-example ';
/** What `torana start` prints once its gateway listens (src/cli/node-actions.ts), as an extended regex. */
export const NODE_READY = 'torana node listening on';
/** A `torana testnet up` status line with no peer down and a leader (src/cli/testnet-status.ts statusLine). */
export const TESTNET_READY = '^[0-9]+s  [^d]*leader peer-[0-9]';

function quote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

const PRELUDE = `set -e -o pipefail
__doc_pids=(); __doc_logs=(); __doc_ats=()
__doc_failed() { # at log rc
  { echo "${LINE_MARK}$1"; echo "background command failed (exit $3):"; cat "$2"; } >&2
  return 1
}
__doc_settle() { # pid log at seconds [text it prints when ready]
  local i rc=0
  for ((i = 0; i < $4 * 10; i++)); do
    if [ -n "$5" ]; then grep -qE -- "$5" "$2" && return 0; else [ -s "$2" ] && return 0; fi
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$1" 2>/dev/null && return 0
  wait "$1" || rc=$?
  [ "$rc" -eq 0 ] || __doc_failed "$3" "$2" "$rc"
}
__doc_end() {
  local i rc
  for i in "\${!__doc_pids[@]}"; do
    rc=0
    if kill -0 "\${__doc_pids[i]}" 2>/dev/null; then
      kill "\${__doc_pids[i]}" 2>/dev/null || true
      wait "\${__doc_pids[i]}" 2>/dev/null || true
    else
      wait "\${__doc_pids[i]}" 2>/dev/null || rc=$?
      # 127: already waited for by __doc_settle, which checked its status
      [ "$rc" -eq 0 ] || [ "$rc" -eq 127 ] || __doc_failed "\${__doc_ats[i]}" "\${__doc_logs[i]}" "$rc"
    fi
  done
}
`;

export interface ScriptOptions {
  /** The page's node, for commands that name the docs' default address (http://127.0.0.1:8080). */
  nodeUrl?: string | undefined;
  /** Commands run before the page's own: the prerequisites the page states (run-page.ts PAGE_SETUPS). */
  prelude?: readonly string[] | undefined;
  /** Host paths the page names (`/var/lib/torana`) and the working-directory paths that stand for them. */
  paths?: readonly (readonly [string, string])[] | undefined;
}

/** The docs' default gateway address, in the forms the docs write it. */
const DEFAULT_ADDRESS = /\b(?:https?:\/\/)?(?:127\.0\.0\.1|localhost):8080\b/g;

/** The script of a page's runnable blocks; throws on a command that cannot run (a placeholder). */
export function pageScript(blocks: readonly DocBlock[], opts: ScriptOptions = {}): string {
  const lines = [PRELUDE];
  let bg = 0;
  for (const command of opts.prelude ?? [])
    lines.push(`echo ${quote(`${LINE_MARK}setup: ${command}`)} >&2`, command);
  for (const block of blocks) {
    if (block.decision.kind !== 'run') continue;
    for (const c of blockCommands(block)) {
      const at = `${c.page}:${c.line}`;
      const ph = placeholders(c.code);
      if (ph.length > 0)
        throw new Error(
          `${at}: placeholder ${ph.join(', ')} in a runnable block: use a variable, or skip it`,
        );
      const address = (s: string) => {
        let t = opts.nodeUrl === undefined ? s : s.replace(DEFAULT_ADDRESS, opts.nodeUrl);
        for (const [host, here] of opts.paths ?? []) t = t.replaceAll(host, here);
        return t;
      };
      lines.push(`echo ${quote(LINE_MARK + at)} >&2`);
      if (c.background) {
        // Without its comment: the redirection follows the command.
        const log = `"$DOC_EXAMPLE_LOGS/background-${++bg}.log"`;
        lines.push(`${address(c.code)} > ${log} 2>&1 &`);
        lines.push(`__doc_pids+=($!); __doc_logs+=(${log}); __doc_ats+=(${quote(at)})`);
        const wait = /\btorana testnet up\b/.test(c.code)
          ? `${START_SETTLE_S} ${quote(TESTNET_READY)}`
          : /\btorana start\b/.test(c.code)
            ? `${START_SETTLE_S} ${quote(NODE_READY)}`
            : `${BACKGROUND_SETTLE_S}`;
        lines.push(`__doc_settle $! ${log} ${quote(at)} ${wait}`);
      } else lines.push(address(c.text));
    }
  }
  lines.push(`echo ${quote(`${LINE_MARK}end`)} >&2`, '__doc_end');
  return `${lines.join('\n')}\n`;
}

/** The `<page>:<line>` of the last command a script's stderr names. */
export function lastLine(stderr: string): string | undefined {
  const at = stderr
    .split('\n')
    .filter((l) => l.startsWith(LINE_MARK))
    .at(-1);
  return at?.slice(LINE_MARK.length);
}
