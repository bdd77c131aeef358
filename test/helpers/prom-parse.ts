// A strict parser of the Prometheus text exposition format 0.0.4, for tests that read `/metrics`
//. Strict means: anything a scraper could misread is an error, not a guess.
//
// Checked here (https://prometheus.io/docs/instrumenting/exposition_formats/, text format 0.0.4):
// - `# HELP name text` (escapes `\\` and `\n` only) and `# TYPE name type`, each at most once per family,
//   TYPE before the family's first sample (required: stricter than the format, which allows untyped
//   samples, because prom-client always declares it); other `#` lines are comments.
// - Sample lines `name{label="value",...} value [timestamp]`: metric and label names from the
//   allowed alphabets, label names not starting with `__`, no duplicate label in a sample, label values
//   with the escapes `\\`, `\"` and `\n` only, values as Go floats (`+Inf`, `-Inf`, `NaN` included).
// - The samples of one family are contiguous; no series (name + label set) appears twice.
// - Histograms: per label set, `_bucket` samples carry a parsable `le`, rise monotonically with `le`,
//   end with `le="+Inf"`, and `_count` equals the `+Inf` bucket; `_sum` is present.
// - Counters are never negative.

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface PromSample {
  /** The sample's own name (`x_bucket`, `x_sum`, `x_count` for histogram parts). */
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
  readonly line: number;
}

export interface PromFamily {
  readonly name: string;
  type: MetricType;
  /** True once a TYPE line was read (a family seen only in HELP is untyped until then). */
  typed: boolean;
  help: string | undefined;
  readonly samples: PromSample[];
}

export class PromParseError extends Error {
  override readonly name = 'PromParseError';
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES: ReadonlySet<string> = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
/** A Go `ParseFloat` number: decimal or exponent form, or the three specials. */
const FLOAT = /^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?Inf|NaN)$/;
const TIMESTAMP = /^-?\d+$/;
const SUFFIXES: Readonly<Record<MetricType, readonly string[]>> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

export function parseFloatStrict(text: string, line: number): number {
  if (!FLOAT.test(text)) throw new PromParseError(line, `bad value ${JSON.stringify(text)}`);
  if (text.endsWith('Inf')) return text.startsWith('-') ? -Infinity : Infinity;
  return text === 'NaN' ? Number.NaN : Number(text);
}

/** Parses `{a="x",b="y"}` content (without braces), honouring escapes; a trailing comma is allowed. */
function parseLabels(text: string, line: number): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new PromParseError(line, 'label without "="');
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name) || name.startsWith('__'))
      throw new PromParseError(line, `bad label name ${JSON.stringify(name)}`);
    if (Object.hasOwn(labels, name)) throw new PromParseError(line, `duplicate label ${name}`);
    if (text[eq + 1] !== '"') throw new PromParseError(line, `label ${name}: value not quoted`);
    let value = '';
    let j = eq + 2;
    for (;;) {
      const c = text[j];
      if (c === undefined) throw new PromParseError(line, `label ${name}: unterminated value`);
      if (c === '"') break;
      if (c === '\n') throw new PromParseError(line, `label ${name}: raw newline`);
      if (c === '\\') {
        const e = text[j + 1];
        if (e === '\\' || e === '"') value += e;
        else if (e === 'n') value += '\n';
        else throw new PromParseError(line, `label ${name}: bad escape \\${e ?? ''}`);
        j += 2;
        continue;
      }
      value += c;
      j++;
    }
    labels[name] = value;
    i = j + 1;
    if (i < text.length) {
      if (text[i] !== ',') throw new PromParseError(line, `junk after label ${name}`);
      i++;
    }
  }
  return labels;
}

/** Splits a sample line into name, label text and the rest, respecting quoted braces in label values. */
function splitSample(raw: string, line: number): { name: string; labelText: string; rest: string } {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(raw);
  if (m === null) throw new PromParseError(line, `not a sample: ${raw.slice(0, 80)}`);
  const name = m[1]!;
  if (raw[name.length] !== '{') return { name, labelText: '', rest: raw.slice(name.length) };
  let j = name.length + 1;
  let quoted = false;
  for (; j < raw.length; j++) {
    const c = raw[j];
    if (quoted && c === '\\') j++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === '}') break;
  }
  if (j >= raw.length) throw new PromParseError(line, 'unterminated label set');
  return { name, labelText: raw.slice(name.length + 1, j), rest: raw.slice(j + 1) };
}

function unescapeHelp(text: string, line: number): string {
  return text.replace(/\\(.?)/g, (_all, c: string) => {
    if (c === '\\') return '\\';
    if (c === 'n') return '\n';
    throw new PromParseError(line, `bad escape in HELP: \\${c}`);
  });
}

function familyOf(name: string, families: Map<string, PromFamily>): PromFamily | undefined {
  const direct = families.get(name);
  if (direct !== undefined && SUFFIXES[direct.type].includes('')) return direct;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!name.endsWith(suffix)) continue;
    const f = families.get(name.slice(0, -suffix.length));
    if (f !== undefined && SUFFIXES[f.type].includes(suffix)) return f;
  }
  return undefined;
}

function seriesKey(name: string, labels: Readonly<Record<string, string>>, drop?: string): string {
  const entries = Object.entries(labels)
    .filter(([k]) => k !== drop)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${name}${JSON.stringify(entries)}`;
}

function readMeta(raw: string, line: number, families: Map<string, PromFamily>, closed: Set<string>): void {
  const m = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(raw);
  if (m === null) return; // a plain comment
  const [, kind, name = '', arg = ''] = m;
  if (!METRIC_NAME.test(name)) throw new PromParseError(line, `bad metric name ${JSON.stringify(name)}`);
  if (closed.has(name)) throw new PromParseError(line, `${kind} for ${name} after its samples ended`);
  let f = families.get(name);
  if (f === undefined) {
    f = { name, type: 'untyped', typed: false, help: undefined, samples: [] };
    families.set(name, f);
  }
  if (kind === 'HELP') {
    if (f.help !== undefined) throw new PromParseError(line, `HELP for ${name} repeated`);
    f.help = unescapeHelp(arg, line);
    return;
  }
  if (!TYPES.has(arg)) throw new PromParseError(line, `unknown type ${JSON.stringify(arg)}`);
  if (f.typed) throw new PromParseError(line, `TYPE for ${name} repeated`);
  if (f.samples.length > 0) throw new PromParseError(line, `TYPE for ${name} after its samples`);
  f.type = arg as MetricType;
  f.typed = true;
}

/** Parses a whole exposition; throws PromParseError naming the first offending line. */
export function parsePrometheusText(text: string): Map<string, PromFamily> {
  if (text.length > 0 && !text.endsWith('\n')) throw new PromParseError(0, 'exposition must end with \\n');
  const families = new Map<string, PromFamily>();
  const seen = new Set<string>();
  const closed = new Set<string>();
  let current: string | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = i + 1;
    if (raw.trim() === '') continue;
    if (raw.startsWith('#')) {
      readMeta(raw, line, families, closed);
      continue;
    }
    const { name, labelText, rest } = splitSample(raw, line);
    const family = familyOf(name, families);
    // Stricter than the format (which allows untyped samples): every family we expose declares its TYPE.
    if (family === undefined || !family.typed)
      throw new PromParseError(line, `sample ${name} without a TYPE`);
    if (family.name !== current) {
      if (current !== undefined) closed.add(current);
      if (closed.has(family.name)) throw new PromParseError(line, `samples of ${family.name} not contiguous`);
      current = family.name;
    }
    const parts = rest.trim().split(/[ \t]+/);
    if (!/^[ \t]/.test(rest) || parts.length < 1 || parts.length > 2)
      throw new PromParseError(line, `bad sample tail ${JSON.stringify(rest.slice(0, 40))}`);
    const value = parseFloatStrict(parts[0]!, line);
    if (parts[1] !== undefined && !TIMESTAMP.test(parts[1]))
      throw new PromParseError(line, `bad timestamp ${parts[1]}`);
    const labels = parseLabels(labelText, line);
    const key = seriesKey(name, labels);
    if (seen.has(key)) throw new PromParseError(line, `duplicate series ${key}`);
    seen.add(key);
    if (family.type === 'counter' && !(value >= 0))
      throw new PromParseError(line, `negative counter ${name}`);
    family.samples.push({ name, labels, value, line });
  }
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return families;
}

interface HistogramSeries {
  buckets: { le: number; value: number; line: number }[];
  sum?: number;
  count?: number;
}

/** Bucket monotonicity, the +Inf bucket and `_count` agreement, per label set (without `le`). */
function checkHistogram(f: PromFamily): void {
  const series = new Map<string, HistogramSeries>();
  const get = (labels: Readonly<Record<string, string>>) => {
    const key = seriesKey('', labels, 'le');
    let s = series.get(key);
    if (s === undefined) {
      s = { buckets: [] };
      series.set(key, s);
    }
    return s;
  };
  for (const s of f.samples) {
    if (s.name === `${f.name}_bucket`) {
      const le = s.labels.le;
      if (le === undefined) throw new PromParseError(s.line, `${s.name} without le`);
      get(s.labels).buckets.push({ le: parseFloatStrict(le, s.line), value: s.value, line: s.line });
    } else if (s.name === `${f.name}_sum`) get(s.labels).sum = s.value;
    else get(s.labels).count = s.value;
  }
  for (const [key, s] of series) {
    const where = `${f.name}${key}`;
    const line = s.buckets[0]?.line ?? 0;
    if (s.buckets.length === 0) throw new PromParseError(line, `${where}: no buckets`);
    for (let i = 1; i < s.buckets.length; i++) {
      const a = s.buckets[i - 1]!;
      const b = s.buckets[i]!;
      if (!(b.le > a.le)) throw new PromParseError(b.line, `${where}: le not increasing`);
      if (b.value < a.value) throw new PromParseError(b.line, `${where}: bucket counts decrease`);
    }
    const last = s.buckets.at(-1)!;
    if (last.le !== Infinity) throw new PromParseError(last.line, `${where}: no le="+Inf" bucket`);
    if (s.count === undefined || s.sum === undefined)
      throw new PromParseError(line, `${where}: _sum or _count missing`);
    if (s.count !== last.value)
      throw new PromParseError(last.line, `${where}: _count ${s.count} != +Inf bucket ${last.value}`);
  }
}

/** Number of series (sample lines) in the exposition. */
export function seriesCount(families: Map<string, PromFamily>): number {
  let n = 0;
  for (const f of families.values()) n += f.samples.length;
  return n;
}
