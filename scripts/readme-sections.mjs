#!/usr/bin/env node
// The README's generated sections, from their sources: the folder table from each `src/<folder>/README.md`
// (its first sentence) and the benchmark table from `bench/results/latest.json`. Each section sits between
// `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`. `node scripts/readme-sections.mjs` rewrites
// them; `--check` exits 1 when the README differs from what the sources give (test/project/readme.test.ts).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** The first sentence of a folder README's first paragraph, without parentheses and links. */
export function summary(readme) {
  const para = readme
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n')
    .trim()
    .split(/\n\s*\n/)[0]
    .replace(/\s+/g, ' ');
  let text = para.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  for (let prev = ''; prev !== text; ) {
    prev = text;
    text = text.replace(/\s?\([^()]*\)/g, '');
  }
  const end = text.search(/[.:](\s|$)/);
  return (end >= 0 ? text.slice(0, end) : text).trim().replace(/[,;]$/, '');
}

export function folderTable(dir = join(root, 'src')) {
  const rows = readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .sort()
    .map((name) => {
      const readme = join(dir, name, 'README.md');
      const text = existsSync(readme) ? summary(readFileSync(readme, 'utf8')) : '';
      const link = existsSync(readme) ? `[\`${name}\`](src/${name}/README.md)` : `\`${name}\``;
      return `| ${link} | ${text} |`;
    });
  return ['| folder | what it holds |', '|---|---|', ...rows].join('\n');
}

function number(v) {
  if (typeof v !== 'number') return '—';
  const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export function benchTable(results) {
  const m = results.machine ?? {};
  const head =
    `Latest ${results.mode ?? ''} run: \`bench/results/latest.json\` (${results.started_at ?? '?'}, ` +
    `${m.cores ?? '?'} cores ${m.cpu_model ?? ''}, Node ${m.node ?? '?'}, load average ` +
    `${m.load_average_1m ?? '?'} at start). Each figure beside a baseline measured in the same run:`;
  const rows = (results.figures ?? []).map((f) => {
    const base = f.baseline ? `${f.baseline}: ${number(f.baseline_value)}` : '—';
    const ratio = typeof f.ratio === 'number' && f.baseline ? number(f.ratio) : '—';
    const met = f.met === true ? 'yes' : f.met === false ? '**no**' : '—';
    return `| \`${f.id}\` | ${number(f.value)} ${f.unit ?? ''} | ${base} | ${ratio} | ${f.goal ?? '—'} | ${met} |`;
  });
  return [
    head,
    '',
    '| figure | value | baseline (same run) | ratio | goal | met |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

export function render(readme, sections) {
  let out = readme;
  for (const [name, body] of Object.entries(sections)) {
    const re = new RegExp(`(<!-- generated:${name} -->)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!re.test(out)) throw new Error(`README.md has no generated:${name} section`);
    out = out.replace(re, (_, a, b) => `${a}\n${body}\n${b}`);
  }
  return out;
}

export function sections() {
  const latest = JSON.parse(readFileSync(join(root, 'bench/results/latest.json'), 'utf8'));
  return { folders: folderTable(), bench: benchTable(latest) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = join(root, 'README.md');
  const readme = readFileSync(path, 'utf8');
  const next = render(readme, sections());
  if (process.argv.includes('--check')) {
    if (next !== readme) {
      console.error('README.md is out of date with its sources: run node scripts/readme-sections.mjs');
      process.exit(1);
    }
  } else if (next !== readme) {
    writeFileSync(path, next);
  }
}
