// What one source of configuration (file, environment, flags) contributes: the values it set,
// already checked against their specs, and every problem it found. Layers are merged in
// precedence order by load.ts.
import type { ConfigError } from './errors.js';
import type { ConfigValue } from './spec.js';

export interface Layer {
  /** Checked values by dotted path (`gateway.port`). */
  readonly values: Map<string, ConfigValue>;
  readonly errors: ConfigError[];
}

export function emptyLayer(): Layer {
  return { values: new Map(), errors: [] };
}
