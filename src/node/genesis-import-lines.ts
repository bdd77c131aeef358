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
import { NUMERIC_SCALE_MAX, parseNumeric } from '../model/numeric.js';
import { toScale } from '../state/amounts.js';
import { CeremonyError } from './genesis-entry.js';

export type ImportLine =
  | { kind: 'domain'; id: string }
  | { kind: 'definition'; id: string; scale: number }
  | { kind: 'account'; id: string; balances: { definition: string; text: string }[] };

/** A line of a genesis state file refused (`genesis_import_invalid`), naming the line. */
export function importLineError(line: number, why: string): CeremonyError {
  return new CeremonyError('genesis_import_invalid', `line ${line}: ${why}`);
}

const FIELDS: Record<ImportLine['kind'], readonly string[]> = {
  domain: ['domain'],
  definition: ['definition', 'scale'],
  account: ['account', 'balances'],
};

/** Parses one line (its form only: whether names exist is the import's check); undefined when empty. */
export function parseImportLine(text: string, line: number): ImportLine | undefined {
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
  const parts = parseAccountId(id);
  if (parts === undefined || `${parts.signatory}@${parts.domain}` !== id)
    throw importLineError(line, `account id "${id}" is not canonical <public key>@<domain>`);
  const b = o.balances ?? {};
  if (typeof b !== 'object' || b === null || Array.isArray(b))
    throw importLineError(line, '"balances" must be an object of definition id to decimal amount');
  const balances: { definition: string; text: string }[] = [];
  for (const [definition, text] of Object.entries(b)) {
    if (typeof text !== 'string' || parseNumeric(text) === undefined)
      throw importLineError(line, `balance of ${definition} must be a decimal string such as "12.50"`);
    balances.push({ definition, text });
  }
  return { kind, id, balances };
}

/** The balance `text` as a mantissa at `scale`, or why it cannot be minted there (as MintAsset refuses). */
export function balanceAt(text: string, scale: number): bigint | string {
  const s = toScale(parseNumeric(text)!, scale);
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
