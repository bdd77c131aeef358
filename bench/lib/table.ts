// The results table printed by `npm run bench` ("When a goal is missed, say so in the output").

import { type FigureResult, NO_GOAL } from './types.js';

export function formatNumber(v: number | null): string {
  if (v === null || Number.isNaN(v)) return '-';
  const abs = Math.abs(v);
  if (abs >= 1000) return Math.round(v).toLocaleString('en');
  if (abs >= 100) return v.toFixed(0);
  if (abs >= 10) return v.toFixed(1);
  if (abs >= 1) return v.toFixed(2);
  return v.toPrecision(3);
}

function metText(f: FigureResult): string {
  if (f.value === null) return 'NOT MEASURED';
  if (f.goal === NO_GOAL) return '-';
  if (f.assessed === false) return 'not assessed';
  return f.met ? 'yes' : 'NO (missed)';
}

export function formatTable(figures: readonly FigureResult[]): string {
  const header = ['figure', 'value', 'unit', 'baseline', 'baseline value', 'ratio', 'goal', 'met'];
  const rows = figures.map((f) => [
    f.id,
    formatNumber(f.value),
    f.unit,
    f.baseline ?? '-',
    formatNumber(f.baseline_value),
    f.ratio === null ? '-' : f.ratio.toFixed(3),
    f.goal,
    metText(f),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)];
  const notes = figures.filter((f) => f.note !== undefined).map((f) => `  ${f.id}: ${f.note}`);
  if (notes.length > 0) out.push('', 'notes:', ...notes);
  return out.join('\n');
}
