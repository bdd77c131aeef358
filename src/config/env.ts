// The environment layer: `TORANA_<SECTION>_<KEY>` variables (upper case) set keys; any other
// `TORANA_` variable is an error naming it, except the few non-configuration variables below.
// Variables without the prefix are never looked at.
import { invalidValue, unknownKey } from './errors.js';
import { allEnvVars, ENV_PREFIX, keyByEnvVar } from './keys.js';
import { emptyLayer, type Layer } from './layer.js';
import { suggestion } from './suggest.js';
import { displayName, parseText } from './values.js';

/**
 * `TORANA_` variables that are not configuration keys: a fail point for crash tests
 * (docs/design/testing.md "Durability discipline"), the node directory, and the CLI's log override.
 */
export const ENV_ALLOW_LIST: readonly string[] = Object.freeze([
  'TORANA_FAILPOINT',
  'TORANA_DIR',
  'TORANA_LOG',
]);

export function readEnvLayer(env: Readonly<Record<string, string | undefined>>): Layer {
  const layer = emptyLayer();
  // Sorted so that errors come out in the same order whatever order the process environment has.
  const names = Object.keys(env)
    .filter((n) => n.startsWith(ENV_PREFIX) && !ENV_ALLOW_LIST.includes(n))
    .sort();
  for (const name of names) {
    const text = env[name];
    if (text === undefined) continue;
    const k = keyByEnvVar(name);
    if (k === undefined) {
      const hint = suggestion(name, allEnvVars());
      layer.errors.push(
        unknownKey(
          name,
          `unknown environment variable ${displayName(name)}${hint}: configuration variables are named ` +
            `TORANA_<SECTION>_<KEY>, and the only other TORANA_ variables are ${ENV_ALLOW_LIST.join(', ')}`,
        ),
      );
      continue;
    }
    const r = parseText(k.spec, text);
    if (r.ok) layer.values.set(k.path, r.value);
    else layer.errors.push(invalidValue(k.path, `environment variable ${name} (${k.path}): ${r.problem}`));
  }
  return layer;
}
