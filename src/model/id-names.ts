// Names that stand in for entity ids (docs/design/modules.md "Names in place of ids"): a ledger module
// may give accounts or asset definitions names of its own, bound in its world-state tables. Every route
// that takes an account or definition id, every list filter and event filter on such a field, then
// accepts the name as well (gateway/id-resolver.ts), without the gateway knowing the module. The module
// installs its naming with the executor's part (state/module-host.ts `IdNaming`).

/**
 * The longest text of a name given in place of an id that a route accepts (bytes): a 64-character label,
 * one separator and a 128-byte domain name. A module's names fit within it (its own checks say so).
 */
export const ID_NAME_TEXT_BYTES_MAX = 64 + 1 + 128;

/** The entities a name may stand for. */
export type NamedIdKind = 'account' | 'definition';

/** Text read as a module's name: well-formed, whether or not it is bound. */
export interface IdName {
  /** The detail field a 404 names an unbound name by (the module's own, e.g. `<kind>_<name>`). */
  readonly field: string;
  /** Whether what it names depends on the block time (the resolver then reads the committed tip's). */
  readonly timed: boolean;
  /** The id it names in the committed state at block time `timeMs`; undefined when it names nothing. */
  id(timeMs: number): string | undefined;
}

/**
 * How routes word a module's names in their descriptions (gateway/id-name-words.ts): the noun, its
 * plural, and the noun with its article, e.g. "… id or <one>", "its parts may be <many>", "takes <a>".
 */
export interface IdNameWords {
  readonly one: string;
  readonly many: string;
  readonly a: string;
}
