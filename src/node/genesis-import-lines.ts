// The lines of a genesis state file (docs/operations.md "Importing a large genesis state"): NDJSON, one
// JSON object per line, read in order; an empty line is skipped.
//   {"domain": "<name>"}                                            a domain
//   {"definition": "<name>#<domain>", "scale": 0..28}               an asset definition, mintable without limit
//   {"account": "<key>@<domain>", "balances": {"<name>#<domain>": "<decimal>", …}}   an account and its assets
// Each line means exactly the instructions `lineInstructions` gives, executed in genesis mode by the
// genesis authority (which then owns every domain and definition): the import writes the rows those
// instructions would. A line is refused, with its number, unless the instructions would all succeed.

import { assetId, parseAccountId, parseDefinitionId } from '../model/ids.js';
import type { Instruction } from '../model/instructions.js';
import { nameProblem } from '../model/names.js';
import { NUMERIC_SCALE_MAX, type Numeric, parseNumeric } from '../model/numeric.js';
import { toScale } from '../state/amounts.js';
import { CeremonyError } from './genesis-entry.js';

export type ImportLine =
  | { kind: 'domain'; id: string }
  | { kind: 'definition'; id: string; scale: number }
  | {
      kind: 'account';
      id: string;
      /** The account's domain (the id's part after its '@'). */
      domain: string;
      /** Each balance's text and its amount as parsed. */
      balances: { definition: string; text: string; amount: Numeric }[];
    };

/** A line of a genesis state file refused (`genesis_import_invalid`), naming the line. */
export function importLineError(line: number, why: string): CeremonyError {
  return new CeremonyError('genesis_import_invalid', `line ${line}: ${why}`);
}

const FIELDS: Record<ImportLine['kind'], readonly string[]> = {
  domain: ['domain'],
  definition: ['definition', 'scale'],
  account: ['account', 'balances'],
};

const ACCOUNT_HEAD = '{"account":"';
const BALANCES_HEAD = '","balances":{';
/** More balances than this on a compact line go through JSON.parse (the repeat check is quadratic). */
const COMPACT_BALANCES_MAX = 16;

/** The index of the `"` that closes a JSON string starting at `from`; -1 at an escape or a control character. */
function plainStringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i;
    if (c === 0x5c || c < 0x20) return -1;
  }
  return -1;
}

/**
 * An account line in the compact form JSON.stringify writes (`{"account":"…","balances":{"…":"…",…}}`:
 * no space, no escape, no control character, string amounts), read without building a JSON object:
 * the id and the balances JSON.parse and Object.entries would give, in the same order. A line in any
 * other form gives undefined and is read by JSON.parse (with its errors): so does a balance key that
 * starts with a digit (Object.entries puts array-index keys first) or a key given twice (JSON.parse
 * keeps the last value at the first place).
 */
function compactAccountLine(text: string): { id: string; balances: [string, string][] } | undefined {
  if (!text.startsWith(ACCOUNT_HEAD)) return undefined;
  const idEnd = plainStringEnd(text, ACCOUNT_HEAD.length);
  if (idEnd < 0 || !text.startsWith(BALANCES_HEAD, idEnd)) return undefined;
  const id = text.slice(ACCOUNT_HEAD.length, idEnd);
  const balances: [string, string][] = [];
  let at = idEnd + BALANCES_HEAD.length;
  if (text.charCodeAt(at) === 0x7d) at++;
  else
    for (;;) {
      if (text.charCodeAt(at) !== 0x22) return undefined;
      const keyEnd = plainStringEnd(text, at + 1);
      if (keyEnd < 0 || text.charCodeAt(keyEnd + 1) !== 0x3a || text.charCodeAt(keyEnd + 2) !== 0x22)
        return undefined;
      const valueEnd = plainStringEnd(text, keyEnd + 3);
      if (valueEnd < 0) return undefined;
      const key = text.slice(at + 1, keyEnd);
      const first = key.charCodeAt(0);
      if ((first >= 0x30 && first <= 0x39) || balances.length === COMPACT_BALANCES_MAX) return undefined;
      for (const b of balances) if (b[0] === key) return undefined;
      balances.push([key, text.slice(keyEnd + 3, valueEnd)]);
      at = valueEnd + 1;
      const c = text.charCodeAt(at++);
      if (c === 0x7d) break;
      if (c !== 0x2c) return undefined;
    }
  return at === text.length - 1 && text.charCodeAt(at) === 0x7d ? { id, balances } : undefined;
}

/** An account line from its id and its balances' entries (the checks of parseImportLine, in order). */
function accountLine(id: string, entries: readonly [string, unknown][], line: number): ImportLine {
  const parts = parseAccountId(id);
  // Canonical: the id is `<signatory>@<domain>` as parsed (its domain is the text after its last '@').
  if (
    parts === undefined ||
    parts.signatory.length + 1 + parts.domain.length !== id.length ||
    !id.startsWith(parts.signatory)
  )
    throw importLineError(line, `account id "${id}" is not canonical <public key>@<domain>`);
  const balances: { definition: string; text: string; amount: Numeric }[] = [];
  for (const [definition, text] of entries) {
    const amount = typeof text === 'string' ? parseNumeric(text) : undefined;
    if (amount === undefined)
      throw importLineError(line, `balance of ${definition} must be a decimal string such as "12.50"`);
    balances.push({ definition, text: text as string, amount });
  }
  return { kind: 'account', id, domain: parts.domain, balances };
}

/** Parses one line (its form only: whether names exist is the import's check); undefined when empty. */
export function parseImportLine(text: string, line: number): ImportLine | undefined {
  const compact = compactAccountLine(text);
  if (compact !== undefined) return accountLine(compact.id, compact.balances, line);
  if (text.trim() === '') return undefined;
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch (e) {
    throw importLineError(line, `not JSON (${(e as Error).message})`);
  }
  if (typeof j !== 'object' || j === null || Array.isArray(j))
    throw importLineError(line, 'expected a JSON object');
  const o = j as Record<string, unknown>;
  const kind = (['domain', 'definition', 'account'] as const).find((k) => k in o);
  if (kind === undefined) throw importLineError(line, 'expected a "domain", "definition" or "account" field');
  const extra = Object.keys(o).find((k) => !FIELDS[kind].includes(k));
  if (extra !== undefined) throw importLineError(line, `unknown field "${extra}" in a ${kind} line`);
  const id = o[kind];
  if (typeof id !== 'string') throw importLineError(line, `"${kind}" must be a string`);
  if (kind === 'domain') {
    const p = nameProblem(id);
    if (p !== undefined) throw importLineError(line, `domain id "${id}": ${p}`);
    return { kind, id };
  }
  if (kind === 'definition') {
    if (parseDefinitionId(id) === undefined)
      throw importLineError(line, `asset definition id "${id}" is not <name>#<domain>`);
    const scale = o.scale ?? 0;
    if (typeof scale !== 'number' || !Number.isInteger(scale) || scale < 0 || scale > NUMERIC_SCALE_MAX)
      throw importLineError(line, `scale must be an integer 0..${NUMERIC_SCALE_MAX}`);
    return { kind, id, scale };
  }
  const b = o.balances ?? {};
  // The id's checks come first, as they always did: a line with a bad id and bad balances names the id.
  if (typeof b !== 'object' || b === null || Array.isArray(b)) {
    accountLine(id, [], line);
    throw importLineError(line, '"balances" must be an object of definition id to decimal amount');
  }
  return accountLine(id, Object.entries(b), line);
}

/** The balance `text` as a mantissa at `scale`, or why it cannot be minted there (as MintAsset refuses). */
export function balanceAt(text: string | Numeric, scale: number): bigint | string {
  const s = toScale(typeof text === 'string' ? parseNumeric(text)! : text, scale);
  if (s.ok) return s.mantissa;
  if (s.why === 'zero') return 'amount must be greater than zero';
  if (s.why === 'overflow') return 'amount exceeds the 128-bit mantissa at the definition scale';
  return `amount has more than ${scale} fraction digits`;
}

/** What a line means: the instructions the genesis authority would execute for it. */
export function lineInstructions(l: ImportLine): Instruction[] {
  const metadata = new Map();
  if (l.kind === 'domain') return [{ kind: 'RegisterDomain', id: l.id, metadata }];
  if (l.kind === 'definition')
    return [
      {
        kind: 'RegisterAssetDefinition',
        id: l.id,
        scale: l.scale,
        mintable: { kind: 'Infinitely' },
        metadata,
      },
    ];
  return [
    { kind: 'RegisterAccount', id: l.id, metadata },
    ...l.balances.map(
      (b): Instruction => ({
        kind: 'MintAsset',
        asset: assetId(b.definition, l.id),
        amount: parseNumeric(b.text)!,
      }),
    ),
  ];
}
