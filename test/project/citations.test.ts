// Every path a comment or a document cites must exist in the repository, so a reader of a clone can
// follow it: `src/…`, `test/…`, `docs/…`, `bench/…`, `scripts/…`, `examples/…`, `circuits/…`, `zk/…`
// followed by a file name with an extension. A section named after a page (`docs/security.md "Signed
// app requests"`) must be one of its headings or bold lead-ins. Text inside generated or vendored files
// is not checked.
//
// Nor may a file cite what a clone does not have: the design notes and the issue tracker the code was
// first written against (an issue by its number or its title). Only the pages of docs/design/ are
// cited, by their full path, and the changelog keeps its history. There is no allow-list. The pattern is
// built from parts so that this file, which is checked like every other, does not spell what it looks for.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = new URL('../..', import.meta.url).pathname;
const TEXT = /\.(ts|mjs|js|md|json|toml|circom)$/;
const SKIP = /^(package-lock\.json|CHANGELOG\.md|bench\/results\/|zk\/artifacts\/)/;
/** A repository path: a top folder, then path characters, then an extension. */
const CITED =
  /(?<![\w./-])(src|test|docs|bench|scripts|examples|circuits|zk)\/[\w./-]+\.(ts|md|mjs|json|circom|toml|js)\b/g;
/** A repository folder: a top folder, then folder names, ending with a slash (`test/abuse/`). */
const CITED_DIR =
  /(?<![\w./<>*-])(?:src|test|docs|bench|scripts|examples|circuits|zk)\/(?:[\w.-]+\/)*(?![\w.-])/g;

/**
 * A section cited by name after a page: `docs/security.md "Signed app requests"`, or several quoted names
 * in a row (`docs/consensus.md "The protocol", "Peers, gossip"`).
 */
const SECTION =
  /(?<![\w./-])((?:src|test|docs|bench|scripts|examples|circuits|zk)\/[\w./-]+\.md)`?\)?,? (?:§ ?)?("[^"\n]+"(?:, "[^"\n]+")*)/g;

/** A title as compared: lower case, without markdown emphasis or code marks, spaces collapsed. */
function plain(text: string): string {
  return text.toLowerCase().replace(/[`*_]/g, '').replace(/\s+/g, ' ').trim();
}

/** The titles of a page: its headings and the bold lead-ins of its paragraphs and items. */
export function titlesOf(page: string): string[] {
  const headings = [...page.matchAll(/^#+\s+(.+)$/gm)].map((m) => plain(m[1]!));
  const leads = [...page.matchAll(/\*\*([^*\n]+)\*\*/g)].map((m) => plain(m[1]!));
  return [...headings, ...leads];
}

/** Tracked files plus new files not yet committed (ignored ones such as dist/ excluded). */
function projectFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0').filter((f) => f !== ''))];
}

function trackedFiles(): string[] {
  return projectFiles().filter((f) => TEXT.test(f) && !SKIP.test(f));
}

/** Documents a clone does not have, cited by file name wherever they appear. */
const ABSENT = ['app-families', 'gateway-interface', ['reference', 'notes'].join('-'), 'style'];
/** Pages of docs/design/: cited with their path (`docs/design/testing.md`), never by a bare name. */
const DESIGN = ['architecture', 'testing', 'dependencies'];
/** A citation of a document outside the repository, or of an issue by its number or its title. */
const OUTSIDE_PARTS = [
  String.raw`\b(?:${ABSENT.join('|')})\.md\b`,
  String.raw`\breference[- ]notes\b`,
  String.raw`\bspec\/`,
  String.raw`\b[Ii]ssues? #?\d+`,
  String.raw`\b[Ii]ssues? "`,
  String.raw`(?<![\w/.-]|docs\/)design\/[\w-]+\.md\b`,
];
/** A bare design page name: outside docs/design/ it names the outside notes of the same name. */
const BARE_DESIGN = String.raw`(?<![\w/.-])(?:${DESIGN.join('|')})\.md\b`;
const OUTSIDE = new RegExp([...OUTSIDE_PARTS, BARE_DESIGN].join('|'));
/** The design pages link each other by bare name (their README lists them so); nothing else goes. */
const OUTSIDE_IN_DESIGN = new RegExp(OUTSIDE_PARTS.join('|'));
/** The history of the changelog keeps what it said. */
const OUTSIDE_SKIP = /^CHANGELOG\.md$/;

/** The lines of `file` that cite a document outside the repository or an issue number. */
function outsideCitations(file: string): string[] {
  const path = join(ROOT, file);
  if (!existsSync(path) || !lstatSync(path).isFile()) return [];
  const bytes = readFileSync(path);
  if (bytes.includes(0)) return []; // binary
  const pattern = file.startsWith('docs/design/') ? OUTSIDE_IN_DESIGN : OUTSIDE;
  const found: string[] = [];
  bytes
    .toString('utf8')
    .split('\n')
    .forEach((line, i) => {
      if (pattern.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 140)}`);
    });
  return found;
}

/** Paths that name what a test or a command writes, not a file of the repository. */
function isGenerated(path: string): boolean {
  return path.includes('*') || path.includes('<') || /\/(tmp|out)\//.test(path);
}

/** A folder git ignores: one a run writes (`test/browser/artifacts/`), absent from a fresh clone. */
function isIgnored(path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', path], { cwd: ROOT });
    return true;
  } catch {
    return false;
  }
}

/** GitHub's anchor of a heading: lower case, punctuation dropped (hyphens kept), spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .trim()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');
}

/** The relative link targets of a markdown page (`[label](target)`), code blocks left out. */
function relativeLinks(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t));
}

describe('citations', () => {
  it('the pattern finds repository paths and nothing else', () => {
    const text = 'see src/state/root.ts and (docs/codec.md §3), not mysrc/x.ts or a.src/b.ts';
    assert.deepEqual(
      [...text.matchAll(CITED)].map((m) => m[0]),
      ['src/state/root.ts', 'docs/codec.md'],
    );
  });

  it('the folder pattern finds repository folders and nothing else', () => {
    const text = 'see test/abuse/ and src/, not src/util/assert.ts, <data>/bridge/ or xtest/y/';
    assert.deepEqual(
      [...text.matchAll(CITED_DIR)].map((m) => m[0]),
      ['test/abuse/', 'src/'],
    );
  });

  it('every path a file cites exists', () => {
    const missing: string[] = [];
    for (const file of trackedFiles()) {
      const path = join(ROOT, file);
      if (!existsSync(path)) continue;
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(CITED)) {
            const cited = m[0].replace(/\.$/, '');
            if (isGenerated(cited) || existsSync(join(ROOT, cited))) continue;
            missing.push(`${file}:${i + 1}: ${cited}`);
          }
          for (const m of line.matchAll(CITED_DIR)) {
            if (existsSync(join(ROOT, m[0])) || isIgnored(m[0])) continue;
            missing.push(`${file}:${i + 1}: ${m[0]}`);
          }
        });
    }
    assert.deepEqual(missing, [], `cited paths that do not exist:\n${missing.join('\n')}`);
  });

  it('a cited section is the start of a heading or a bold lead-in of its page', () => {
    const page = '# Page\n\n## Signed app requests (the one rule)\n\n**Crash safety.** Before any vote…\n';
    const titles = titlesOf(page);
    for (const q of ['Signed app requests', 'signed APP requests', 'Crash safety']) {
      assert.ok(
        titles.some((t) => t.startsWith(plain(q))),
        q,
      );
    }
    assert.ok(!titles.some((t) => t.startsWith(plain('Membership'))));
    // Built from parts, so that this file does not cite sections its pages lack.
    const text = [
      'see docs/codec.md',
      '"One", "Two" and (`docs/errors.md`',
      '§"Three") but not docs/mcp.md alone',
    ];
    assert.deepEqual(
      [...text.join(' ').matchAll(SECTION)].map((m) => [m[1], m[2]]),
      [
        ['docs/codec.md', '"One", "Two"'],
        ['docs/errors.md', '"Three"'],
      ],
    );
  });

  it('every section a file cites by name exists in the page it names', () => {
    const titles = new Map<string, string[]>();
    const missing: string[] = [];
    for (const file of trackedFiles()) {
      const path = join(ROOT, file);
      if (!existsSync(path)) continue;
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(SECTION)) {
            const page = m[1]!;
            if (!existsSync(join(ROOT, page))) continue; // reported by the test above
            if (!titles.has(page)) titles.set(page, titlesOf(readFileSync(join(ROOT, page), 'utf8')));
            for (const q of m[2]!.matchAll(/"([^"]+)"/g)) {
              if (!titles.get(page)!.some((t) => t.startsWith(plain(q[1]!))))
                missing.push(`${file}:${i + 1}: ${page} "${q[1]}"`);
            }
          }
        });
    }
    assert.deepEqual(missing, [], `cited sections that their page does not have:\n${missing.join('\n')}`);
  });

  it('a link anchor is the heading GitHub derives it from', () => {
    assert.equal(anchorOf('Signed app requests'), 'signed-app-requests');
    assert.equal(anchorOf('Limits (`GatewayLimits`; defaults)'), 'limits-gatewaylimits-defaults');
    assert.deepEqual(relativeLinks('[a](b.md#c) [d](https://e.org) ```\n[f](g.md)\n```'), ['b.md#c']);
  });

  it("every relative link of a markdown page leads to a file, and its anchor to one of that page's headings", () => {
    const broken: string[] = [];
    for (const file of trackedFiles().filter((f) => f.endsWith('.md'))) {
      if (!existsSync(join(ROOT, file))) continue;
      for (const link of relativeLinks(readFileSync(join(ROOT, file), 'utf8'))) {
        const [path = '', anchor] = link.split('#');
        const target = path === '' ? file : normalize(join(dirname(file), path));
        if (!existsSync(join(ROOT, target))) {
          broken.push(`${file}: ${link}`);
          continue;
        }
        if (anchor === undefined || !target.endsWith('.md')) continue;
        const headings = readFileSync(join(ROOT, target), 'utf8')
          .split('\n')
          .filter((l) => /^#+ /.test(l))
          .map((l) => anchorOf(l.replace(/^#+\s*/, '')));
        if (!headings.includes(anchor)) broken.push(`${file}: ${link} (no such heading)`);
      }
    }
    assert.deepEqual(broken, [], `broken links:\n${broken.join('\n')}`);
  });

  it('the outside pattern finds outside documents and issue numbers, not the design pages', () => {
    const hits = [
      `(${ABSENT[0]}.md §2)`,
      `see ${ABSENT[2]} §7`,
      `${ABSENT[3]}.md "Layout"`,
      `design/${ABSENT[3]}.md`,
      `(design/${DESIGN[2]}.md "Pins")`,
      `(${DESIGN[1]}.md "Durability discipline")`,
      ['spec', 'a.md'].join('/'),
      ['Issue', '10 finding 1'].join(' '),
      ['(issue', '6 table)'].join(' '),
      ['issues', '#12'].join(' '),
      ['(issue', '"Gateway", Done means)'].join(' '),
    ];
    for (const hit of hits) assert.match(hit, OUTSIDE);
    const misses = [
      `docs/design/${DESIGN[1]}.md "Habits"`,
      `docs/design/${DESIGN[0]}.md`,
      `[the design pages](docs/design/README.md)`,
      `[Habits](../docs/design/${DESIGN[1]}.md)`,
      'the issue tracker',
      'the issues: 3 of them',
      ['respec', 'x'].join('/'),
      'docs/codec.md §3',
    ];
    for (const miss of misses) assert.doesNotMatch(miss, OUTSIDE);
  });

  it('no file cites a document outside the repository or an issue number', () => {
    const files = projectFiles();
    assert.ok(files.length > 100, `git ls-files listed only ${files.length} files`);
    const offenders: string[] = [];
    for (const file of files) {
      if (!OUTSIDE_SKIP.test(file)) offenders.push(...outsideCitations(file));
    }
    assert.deepEqual(
      offenders,
      [],
      `files that cite documents a clone does not have, or issue numbers:\n${offenders.join('\n')}`,
    );
  });
});
