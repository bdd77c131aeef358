// Checking one value against its key's spec. Two entry points: `parseText` for the strings of
// environment variables and flags (strict: digits only, `true`/`false`, comma-separated lists), and
// `checkValue` for typed values (TOML, or overrides already typed by the caller). Both return a
// result, never throw: configuration is user input.
import {
  CONFIG_LIST_ITEMS_MAX,
  CONFIG_STRING_LENGTH_MAX,
  type ConfigValue,
  type EnumSpec,
  type IntegerSpec,
  type KeySpec,
  type StringListSpec,
  type StringSpec,
} from './spec.js';

export type Checked =
  | { readonly ok: true; readonly value: ConfigValue }
  | { readonly ok: false; readonly problem: string };

/** Characters of a given string quoted in a message; longer values are cut so messages stay short. */
const QUOTED_LENGTH_MAX = 64;
/** Digits of Number.MAX_SAFE_INTEGER; longer digit strings are out of range for every key. */
const INTEGER_DIGITS_MAX = 16;
const DIGITS = /^(?:0|[1-9][0-9]*)$/;
// A lone surrogate cannot be written in TOML (or UTF-8), so a value holding one could not round-trip.
const LONE_SURROGATE = /\p{Surrogate}/u;

export interface CheckOptions {
  /** TOML keeps integers and floats apart (integers arrive as bigint); a JS number there is a float. */
  readonly numbersAreFloats: boolean;
}

const fail = (problem: string): Checked => ({ ok: false, problem });
const pass = (value: ConfigValue): Checked => ({ ok: true, value });

export function describeExpected(spec: KeySpec): string {
  switch (spec.type) {
    case 'string':
      return spec.nonEmpty ? 'a non-empty string' : 'a string';
    case 'integer':
      return `an integer in ${spec.min}..${spec.max}`;
    case 'boolean':
      return 'a boolean (true or false)';
    case 'string[]':
      return spec.itemsMin > 0
        ? `a list of at least ${spec.itemsMin} non-empty string(s)`
        : 'a list of non-empty strings';
    case 'enum':
      return `one of ${spec.values.map((v) => `'${v}'`).join(', ')}`;
  }
}

export function quote(s: string): string {
  const cut = s.length > QUOTED_LENGTH_MAX ? `${s.slice(0, QUOTED_LENGTH_MAX)}...` : s;
  return JSON.stringify(cut);
}

const PLAIN_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * A user-supplied name (unknown key, variable or setting) as it may appear in a message: plain
 * names as they are, anything else quoted and cut, so control characters never reach a log line.
 */
export function displayName(name: string): string {
  return PLAIN_NAME.test(name) ? name : quote(name);
}

export function describeGiven(raw: unknown, opts: CheckOptions): string {
  if (typeof raw === 'string') return `string ${quote(raw)}`;
  if (typeof raw === 'bigint') return `integer ${raw}`;
  if (typeof raw === 'number') return `${opts.numbersAreFloats ? 'float' : 'number'} ${raw}`;
  if (typeof raw === 'boolean') return `boolean ${raw}`;
  if (Array.isArray(raw)) return `an array of ${raw.length} item(s)`;
  if (raw instanceof Date) return 'a date-time';
  if (raw === null) return 'null';
  if (typeof raw === 'object') return 'a table';
  return typeof raw;
}

/** Parses the text of an environment variable or flag by the key's type. */
export function parseText(spec: KeySpec, text: string): Checked {
  const given = `got ${quote(text)}`;
  switch (spec.type) {
    case 'string':
      return checkString(spec, text);
    case 'integer': {
      if (!DIGITS.test(text))
        return fail(`expected ${describeExpected(spec)} written with digits only, ${given}`);
      if (text.length > INTEGER_DIGITS_MAX) return fail(`expected ${describeExpected(spec)}, ${given}`);
      return checkInteger(spec, Number(text), given);
    }
    case 'boolean':
      if (text === 'true' || text === 'false') return pass(text === 'true');
      return fail(`expected 'true' or 'false', ${given}`);
    case 'string[]': {
      if (text === '') return checkList(spec, []);
      const items = text.split(',').map((s) => s.trim());
      if (items.includes('')) return fail(`expected a comma-separated list without empty items, ${given}`);
      return checkList(spec, items);
    }
    case 'enum':
      return checkEnum(spec, text);
  }
}

/** Checks a typed value (from TOML or a typed override) against the key's spec. */
export function checkValue(spec: KeySpec, raw: unknown, opts: CheckOptions): Checked {
  const wrongType = (): Checked =>
    fail(`expected ${describeExpected(spec)}, got ${describeGiven(raw, opts)}`);
  switch (spec.type) {
    case 'string':
      return typeof raw === 'string' ? checkString(spec, raw) : wrongType();
    case 'integer': {
      const given = `got ${describeGiven(raw, opts)}`;
      if (typeof raw === 'bigint') {
        const inRange = raw >= BigInt(spec.min) && raw <= BigInt(spec.max);
        return inRange ? pass(Number(raw)) : fail(`expected ${describeExpected(spec)}, ${given}`);
      }
      if (typeof raw === 'number' && !opts.numbersAreFloats && Number.isInteger(raw)) {
        return checkInteger(spec, raw, given);
      }
      return wrongType();
    }
    case 'boolean':
      return typeof raw === 'boolean' ? pass(raw) : wrongType();
    case 'string[]':
      if (!Array.isArray(raw) || !raw.every((x): x is string => typeof x === 'string')) return wrongType();
      return checkList(spec, raw);
    case 'enum':
      return typeof raw === 'string' ? checkEnum(spec, raw) : wrongType();
  }
}

function checkInteger(spec: IntegerSpec, n: number, given: string): Checked {
  if (n < spec.min || n > spec.max) return fail(`expected ${describeExpected(spec)}, ${given}`);
  return pass(n === 0 ? 0 : n); // normalises -0
}

function stringProblem(s: string): string | undefined {
  if (s.length > CONFIG_STRING_LENGTH_MAX) return `is longer than ${CONFIG_STRING_LENGTH_MAX} characters`;
  if (LONE_SURROGATE.test(s)) return 'holds an unpaired UTF-16 surrogate';
  return undefined;
}

function checkString(spec: StringSpec, s: string): Checked {
  if (spec.nonEmpty && s === '') return fail(`expected ${describeExpected(spec)}, got an empty string`);
  const problem = stringProblem(s);
  return problem === undefined ? pass(s) : fail(`the string ${problem}`);
}

function checkList(spec: StringListSpec, items: readonly string[]): Checked {
  if (items.length < spec.itemsMin || items.length > CONFIG_LIST_ITEMS_MAX) {
    return fail(
      `expected ${describeExpected(spec)} and at most ${CONFIG_LIST_ITEMS_MAX}, got ${items.length} item(s)`,
    );
  }
  for (const [i, item] of items.entries()) {
    if (item === '') return fail(`item ${i} is an empty string`);
    const problem = stringProblem(item);
    if (problem !== undefined) return fail(`item ${i} ${problem}`);
  }
  return pass(Object.freeze([...items]));
}

function checkEnum(spec: EnumSpec, s: string): Checked {
  return spec.values.includes(s) ? pass(s) : fail(`expected ${describeExpected(spec)}, got ${quote(s)}`);
}
