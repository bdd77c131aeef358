// Property tests: random valid settings, given as typed overrides, as flag/environment text, or written to
// TOML, always load back to the same configuration (docs/design/testing.md "Habits": fixed run counts;
// fast-check prints the seed and the shrunk counterexample on failure).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// The registry adds the modules' sections to the schema (sections.ts): they are checked like the core's.
import '../modules/registry.js';
import fc from 'fast-check';
import { type ConfigKey, configKeys } from './keys.js';
import { loadConfig } from './load.js';
import { renderConfigToml } from './render.js';
import { checkRules, configFollows } from './rules.js';
import { buildConfig, type Config } from './schema.js';
import type { ConfigValue, KeySpec } from './spec.js';

const NUM_RUNS = 300;
/** Few keys per case, so that pairs that must agree (rules.ts) are rarely both drawn. */
const KEYS_PER_CASE_MAX = 8;

function valueArb(spec: KeySpec): fc.Arbitrary<ConfigValue> {
  switch (spec.type) {
    case 'string':
      return fc.string({ unit: 'binary', minLength: spec.nonEmpty ? 1 : 0, maxLength: 24 });
    case 'integer':
      return fc.bigInt({ min: BigInt(spec.min), max: BigInt(spec.max) }).map(Number);
    case 'boolean':
      return fc.boolean();
    case 'string[]':
      return fc.array(fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }), {
        minLength: spec.itemsMin,
        maxLength: 4,
      });
    case 'enum':
      return fc.constantFrom(...spec.values);
  }
}

/** The text an operator would type for the value, or undefined when text cannot express it. */
function asText(v: ConfigValue): string | undefined {
  if (!Array.isArray(v)) return String(v);
  const plain = v.every((item) => !item.includes(',') && item.trim() === item);
  return plain ? v.join(',') : undefined;
}

interface Setting {
  readonly k: ConfigKey;
  readonly value: ConfigValue;
  readonly text: boolean;
}

const settingsArb: fc.Arbitrary<Setting[]> = fc
  .subarray([...configKeys()], { maxLength: KEYS_PER_CASE_MAX })
  .chain((keys) =>
    fc.tuple(
      ...keys.map((k) => fc.record({ k: fc.constant(k), value: valueArb(k.spec), text: fc.boolean() })),
    ),
  );

function expected(settings: Setting[]): Config {
  const byPath = new Map(settings.map((s) => [s.k.path, s.value]));
  // A key with a derived default (rules.ts configFollows()) takes its source's value when unset.
  const unset = (path: string, spec: KeySpec): ConfigValue => {
    const source = configFollows().get(path);
    return source === undefined ? spec.default : (byPath.get(source) ?? spec.default);
  };
  return buildConfig((path, spec) => byPath.get(path) ?? unset(path, spec));
}

function overridesOf(settings: Setting[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of settings) out[s.k.path] = s.text ? (asText(s.value) ?? s.value) : s.value;
  return out;
}

describe('config properties', () => {
  it('random valid overrides load to exactly those values (or to the pair errors they cause)', () => {
    fc.assert(
      fc.property(settingsArb, (settings) => {
        const want = expected(settings);
        const r = loadConfig({ overrides: overridesOf(settings) });
        const ruleErrors = checkRules(want);
        if (ruleErrors.length > 0) assert.deepEqual(r, { ok: false, errors: ruleErrors });
        else assert.deepEqual(r, { ok: true, config: want });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('the environment form of random settings gives the same configuration as the overrides', () => {
    fc.assert(
      fc.property(settingsArb, (settings) => {
        const env: Record<string, string> = {};
        const rest: Setting[] = [];
        for (const s of settings) {
          const text = asText(s.value);
          if (text === undefined) rest.push(s);
          else env[s.k.envVar] = text;
        }
        const viaEnv = loadConfig({ env, overrides: overridesOf(rest) });
        assert.deepEqual(viaEnv, loadConfig({ overrides: overridesOf(settings) }));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('renderConfigToml output loads back to the same configuration', () => {
    fc.assert(
      fc.property(settingsArb, fc.boolean(), (settings, onlyNonDefault) => {
        const config = expected(settings);
        fc.pre(checkRules(config).length === 0);
        const r = loadConfig({ file: renderConfigToml(config, { onlyNonDefault }) });
        assert.deepEqual(r, { ok: true, config });
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
