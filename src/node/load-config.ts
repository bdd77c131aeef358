// Loading a node's configuration: `<dir>/config.toml` (or `--config FILE`), then TORANA_* environment
// variables, then command-line flags (config/README.md "Precedence").

import { readFile } from 'node:fs/promises';
import type { DecodeLimits } from '../codec/limits.js';
import { ConfigLoadError } from '../config/errors.js';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { nodeFiles } from './files.js';

// The error of a configuration the node cannot start with (config/errors.ts, where a module's check of
// its values reaches it too).
export { ConfigLoadError };

export async function loadNodeConfig(opts: {
  dir: string;
  configFile?: string | undefined;
  env?: Record<string, string | undefined>;
  overrides?: Record<string, unknown>;
}): Promise<Config> {
  const path = opts.configFile ?? nodeFiles(opts.dir).config;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new ConfigLoadError(`cannot read configuration ${path}: ${(e as Error).message}`);
  }
  const r = loadConfig({ file: text, filePath: path, env: opts.env ?? {}, overrides: opts.overrides ?? {} });
  if (!r.ok) throw new ConfigLoadError(r.errors.map((e) => `${e.code}: ${e.message}`).join('\n'));
  return r.config;
}

/** The codec's decode limits from the `codec.*` keys (used wherever blocks and bodies are decoded). */
export function decodeLimitsOf(config: Config): DecodeLimits {
  return {
    bytesMax: config.codec.bytesMax,
    itemsMax: config.codec.sequenceItemsMax,
    depthMax: config.codec.depthMax,
  };
}
