// Typed configuration errors: every problem is a value with a stable `code` and
// the key it concerns, so the CLI can print them all at once and tests can match them exactly.

export type ConfigErrorCode = 'config_unknown_key' | 'config_invalid_value' | 'config_parse_error';

/** A configuration the node cannot start with (a value checked where it is used), thrown at start. */
export class ConfigLoadError extends Error {
  override readonly name = 'ConfigLoadError';
}

export interface ConfigError {
  readonly code: ConfigErrorCode;
  /**
   * The key concerned: `section.key` (or a bare `section`) for file entries and flags, the
   * variable's name for an unknown `TORANA_...` variable, the file path (or `<file>`) for a parse error.
   */
  readonly key: string;
  /** A full sentence naming where the value came from, the key, what was expected and what was given. */
  readonly message: string;
  /** 1-based position of a TOML parse error. */
  readonly line?: number;
  readonly column?: number;
}

export function unknownKey(key: string, message: string): ConfigError {
  return { code: 'config_unknown_key', key, message };
}

export function invalidValue(key: string, message: string): ConfigError {
  return { code: 'config_invalid_value', key, message };
}
