// The software version a node reports (the node info port): `torana/<version>` from the package's
// own package.json, two folders up from this file in the sources (src/node) and in the build (dist/node).

import { readFileSync } from 'node:fs';

export function softwareVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? `torana/${pkg.version}` : 'torana/unknown';
  } catch {
    return 'torana/unknown';
  }
}
