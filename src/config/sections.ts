// The port through which ledger modules add their configuration sections to the one schema
// (schema.ts `configSchema`). The config layer never imports a module: the modules' registry
// (src/modules/registry.ts, imported by every entry point before it reads a configuration) hands its
// modules' sections in once, and the first read of the schema seals the list; a section added after
// that throws, so no process can run with a schema that silently lacks a module's keys.
import { assert } from '../util/assert.js';
import type { KeySpec, SectionSpec, SectionValues } from './spec.js';

/** `key` (a key of this section) may be true only while `needs` (a full `section.key` path) is true. */
export interface SectionNeedsRule {
  readonly key: string;
  readonly needs: string;
  readonly why: string;
}

/** One finding of a section's own check: the key at fault (a key of this section, snake_case) and why. */
export interface SectionCheckFinding {
  readonly key: string;
  readonly message: string;
}

/**
 * One module's configuration section: its name (the TOML table, `TORANA_<NAME>_` prefix), its keys
 * with types, defaults, bounds and docs (spec.ts helpers), and its cross-key rules: `needs` (a boolean
 * of this section that requires another key true, checked and documented like the core's) and
 * `follows` (a boolean of this section whose default, left unset, is the value of another key).
 * A section whose `enabled` key needs `app_api.enabled` is an application family: the description of
 * `app_api.enabled` lists it.
 */
export interface ModuleConfigSection<K extends Record<string, KeySpec> = Record<string, KeySpec>> {
  readonly name: string;
  readonly spec: SectionSpec<K>;
  readonly needs?: readonly SectionNeedsRule[];
  readonly follows?: Readonly<Record<string, string>>;
  /** Values of this section's keys that the configuration `torana init` writes for a local setup. */
  readonly local?: Readonly<Record<string, unknown>>;
  /**
   * How the description of `app_api.enabled` names this application family (default: the section's
   * name), e.g. a title with spaces and capitals.
   */
  readonly title?: string;
  /**
   * True: the section configures an application family that has no `enabled` switch of its own (it is
   * served whenever `app_api.enabled` is): the description of `app_api.enabled` names it among the
   * families all the same, in section order.
   */
  readonly appFamily?: true;
  /**
   * The core section this one is written right after (config.toml, `torana config`, the schema's order),
   * ahead of the modules' sections that name none; without it, the section follows the core's
   * MODULE_SECTIONS_AFTER in registry order. A section that moved out of the core keeps its place so.
   * It may also name another module's own section: then it is written right after that one.
   */
  readonly writtenAfter?: string;
  /**
   * True: its keys are written in the core section of the same name, after the core's own keys (one
   * TOML table, one `TORANA_<NAME>_` prefix, the core's doc). For a module whose keys always sat in a
   * core section that the core still needs (a key the gateway reads): the table and the generated
   * configuration stay as they were, and the keys are the module's. Not with `writtenAfter`.
   */
  readonly inCoreSection?: true;
  /**
   * The section's own check of its merged values (camelCase fields, as `sectionValues` gives them), for
   * a condition `needs` cannot state (a key that must be set when another key has a given value). Each
   * finding is a `config_invalid_value` error at `<name>.<key>` (rules.ts `checkRules`).
   */
  check?(values: SectionValues<K>): readonly SectionCheckFinding[];
  /** What `check` refuses, in a sentence docs/configuration.md shows with the section (with `check`). */
  readonly checkDoc?: string;
}

/** Declares a module's section (typed, so the module reads its values with `sectionValues`). */
export function moduleSection<const K extends Record<string, KeySpec>>(
  decl: ModuleConfigSection<K>,
): ModuleConfigSection<K> {
  return Object.freeze(decl);
}

let added: readonly ModuleConfigSection[] = Object.freeze([]);
let sealed = false;

/** Adds the modules' sections (the registry does, once, in registry order). Throws once the schema was read. */
export function addConfigSections(sections: readonly ModuleConfigSection[]): void {
  const names = sections.map((s) => s.name);
  assert(!sealed, `config sections ${names.join(', ')} added after the configuration schema was first read`);
  for (const s of sections) {
    assert(/^[a-z][a-z0-9_]*$/.test(s.name), `config section name ${s.name} is not snake_case`);
    assert(!added.some((a) => a.name === s.name), `config section ${s.name} added twice`);
  }
  added = Object.freeze([...added, ...sections]);
}

/** The modules' sections, in the order added; the first call seals the list. */
export function moduleConfigSections(): readonly ModuleConfigSection[] {
  sealed = true;
  return added;
}

/** The modules' values for a local setup (`torana init`), as `section.key` overrides. */
export function localConfigOverrides(): Record<string, unknown> {
  return Object.fromEntries(
    moduleConfigSections().flatMap((m) =>
      Object.entries(m.local ?? {}).map(([key, value]) => [`${m.name}.${key}`, value] as const),
    ),
  );
}
