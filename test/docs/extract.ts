// The shell examples of README.md and docs/**/*.md, as the doc-example tests read them.
//
// Convention (README.md "Development"): every fenced block whose language is sh, bash, shell or console
// carries a marker on the line before its fence, and a block without one fails the quick check:
//   <!-- doc-example: run -->                  run by test/docs/doc-examples.test.ts, in page order
//   <!-- doc-example: skip reason="…" -->      not run; the test lists it with its reason
//   <!-- doc-example: run needs="netns" -->    run only where the test can (NEEDS: root and `ip netns`);
//                                              elsewhere skipped, the test printing why
// A block with no language whose first line is a command (torana, npx, npm, curl, `$ `) is an error too:
// give it a shell language and a marker. In a console block only `$ ` lines are commands (the rest is
// output); elsewhere a leading `$ ` is dropped. A trailing `\` continues a command. A command whose
// comment says "in another terminal", that follows a stream (`--follow`, `torana explorer watch`,
// `curl -N`), or runs a network until Ctrl-C (`torana testnet up`) runs in the background for the rest
// of its page.

export const SHELL_LANGS = ['sh', 'bash', 'shell', 'console'] as const;

/** What a `run needs="…"` block needs of the host, and why it is skipped without it. */
export const NEEDS = {
  netns: 'root and Linux network namespaces (ip netns)',
} as const;
export type Need = keyof typeof NEEDS;

export type Decision =
  | { kind: 'run'; needs?: Need }
  | { kind: 'skip'; reason: string }
  | { kind: 'none' }
  | { kind: 'invalid'; problem: string };

export interface DocBlock {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** The block's lines, the fence's indentation removed; body[i] is line `line + 1 + i`. */
  body: string[];
  decision: Decision;
  /** Set for a block with no language that holds commands. */
  untagged?: boolean;
}

export interface DocCommand {
  page: string;
  /** 1-based line of the command's first line. */
  line: number;
  /** The command as bash reads it: continuation lines joined by `\` + newline, the prompt removed. */
  text: string;
  /** The command without its trailing comment. */
  code: string;
  comment: string;
  background: boolean;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const MARKER = /^<!--\s*doc-example:\s*(.*?)\s*-->$/;
const COMMAND_START = /^(\$ |(torana|npx|npm|curl)\s)/;

function parseMarker(args: string): Decision {
  if (args === 'run') return { kind: 'run' };
  const needs = /^run\s+needs="([^"]+)"$/.exec(args);
  if (needs && Object.hasOwn(NEEDS, needs[1]!)) return { kind: 'run', needs: needs[1] as Need };
  if (needs)
    return {
      kind: 'invalid',
      problem: `marker "doc-example: ${args}": needs is one of ${Object.keys(NEEDS).join(', ')}`,
    };
  const skip = /^skip\s+reason="([^"]+)"$/.exec(args);
  if (skip) return { kind: 'skip', reason: skip[1]! };
  return {
    kind: 'invalid',
    problem: `marker "doc-example: ${args}": write "doc-example: run" or "doc-example: skip reason=\\"…\\""`,
  };
}

/** The fenced blocks of one page that are shell, or hold commands without a language. */
export function shellBlocks(page: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  let pending: { decision: Decision; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const trimmed = lines[i]!.trim();
    const marker = MARKER.exec(trimmed);
    if (marker) {
      if (pending) blocks.push(dangling(page, pending.line));
      pending = { decision: parseMarker(marker[1]!), line: i + 1 };
      continue;
    }
    const fence = FENCE.exec(lines[i]!);
    if (!fence) {
      if (pending && trimmed !== '') {
        blocks.push(dangling(page, pending.line));
        pending = undefined;
      }
      continue;
    }
    const [, indent, ticks, lang] = fence as unknown as [string, string, string, string];
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length; i++) {
      const l = lines[i]!;
      if (l.trim().startsWith(ticks) && l.trim().replace(/[`~]/g, '') === '') break;
      body.push(l.startsWith(indent) ? l.slice(indent.length) : l.trimStart());
    }
    const isShell = (SHELL_LANGS as readonly string[]).includes(lang);
    const firstLine = body.find((l) => l.trim() !== '')?.trim() ?? '';
    const untagged = lang === '' && COMMAND_START.test(firstLine);
    if (isShell || untagged)
      blocks.push({
        page,
        line: start + 1,
        lang,
        body,
        decision: pending?.decision ?? { kind: 'none' },
        ...(untagged ? { untagged: true } : {}),
      });
    else if (pending) blocks.push(dangling(page, pending.line));
    pending = undefined;
  }
  if (pending) blocks.push(dangling(page, pending.line));
  return blocks;
}

function dangling(page: string, line: number): DocBlock {
  return {
    page,
    line,
    lang: '',
    body: [],
    decision: { kind: 'invalid', problem: 'a doc-example marker not followed by a shell block' },
  };
}

/** `s` split at its first `#` that starts a comment (outside quotes, at a word start). */
export function splitComment(s: string): { code: string; comment: string } {
  let quote: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '\\') i++;
    else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(s[i - 1]!)))
      return { code: s.slice(0, i).trimEnd(), comment: s.slice(i + 1).trim() };
  }
  return { code: s.trimEnd(), comment: '' };
}

/** Whether a command runs in the background for the rest of its page (the convention above). */
export function isBackground(code: string, comment: string): boolean {
  return (
    /in another terminal/i.test(comment) ||
    /(^|\s)--follow(\s|$)/.test(code) ||
    /\btorana explorer watch\b/.test(code) ||
    /\btorana testnet up\b/.test(code) ||
    /^curl\b.*\s-N(\s|$)/.test(code)
  );
}

/** The commands of a block, one per logical line (blank and comment-only lines dropped). */
export function blockCommands(block: DocBlock): DocCommand[] {
  const out: DocCommand[] = [];
  const console = block.lang === 'console';
  for (let i = 0; i < block.body.length; i++) {
    let first = block.body[i]!;
    if (console) {
      if (!first.startsWith('$ ')) continue;
      first = first.slice(2);
    } else if (first.startsWith('$ ')) first = first.slice(2);
    if (first.trim() === '' || first.trim().startsWith('#')) continue;
    const line = block.line + 1 + i;
    const parts = [first];
    while (parts.at(-1)!.endsWith('\\') && i + 1 < block.body.length) parts.push(block.body[++i]!);
    // The comment of the last line (a continued line has none: its `\` ends it).
    const last = splitComment(parts.at(-1)!);
    const code = [...parts.slice(0, -1), last.code].join('\n');
    out.push({
      page: block.page,
      line,
      text: parts.join('\n'),
      code,
      comment: last.comment,
      background: isBackground(code, last.comment),
    });
  }
  return out;
}

/** Placeholders such as `<alice account id>` outside quotes: a runnable command may hold none. */
export function placeholders(code: string): string[] {
  const found: string[] = [];
  let quote: string | undefined;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '<') {
      const m = /^<([A-Za-z][^<>\n]*)>/.exec(code.slice(i));
      if (m) {
        found.push(m[0]);
        i += m[0].length - 1;
      }
    }
  }
  return found;
}

/** Shell words of `s` (quotes removed; `$(…)` and operators kept as words of their own). */
export function shellWords(s: string): string[] {
  const words: string[] = [];
  let cur = '';
  let quote: string | undefined;
  let started = false;
  const flush = () => {
    if (started) words.push(cur);
    cur = '';
    started = false;
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      started = true;
    } else if (c === '\\' && s[i + 1] === '\n') i++;
    else if (/\s/.test(c)) flush();
    else if (c === '$' && s[i + 1] === '(') {
      flush();
      words.push('$(');
      i++;
    } else if ('|&;()'.includes(c)) {
      flush();
      const two = s.slice(i, i + 2);
      if (two === '&&' || two === '||') i++;
      words.push(two === '&&' || two === '||' ? two : c);
    } else {
      cur += c;
      started = true;
    }
  }
  flush();
  return words;
}

const OPERATORS = new Set(['|', '&', ';', '&&', '||', '(', ')', '$(']);

/**
 * The arguments of each `torana` the code runs (`torana …`, `npx torana …`, `node bin/torana.js …`,
 * also after `env V=x`, `ip netns exec NS`, `exec`, `sudo`, in `$(…)` and after `|`, `&&`, `;`).
 */
export function toranaInvocations(code: string): string[][] {
  const words = shellWords(code);
  const found: string[][] = [];
  let atStart = true;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (OPERATORS.has(w)) {
      atStart = true;
      continue;
    }
    if (!atStart) continue;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) || ['npx', 'exec', 'sudo', 'env', 'time'].includes(w)) continue;
    if (w === 'ip' && words[i + 1] === 'netns' && words[i + 2] === 'exec') {
      i += 3;
      continue;
    }
    atStart = false;
    if (w === 'node' && words[i + 1] === 'bin/torana.js') i++;
    else if (w !== 'torana') continue;
    const args: string[] = [];
    for (i++; i < words.length && !OPERATORS.has(words[i]!); i++) args.push(words[i]!);
    i--;
    found.push(args);
  }
  return found;
}
