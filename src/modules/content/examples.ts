// One JSON example of each of this module's instruction kinds.
// The form `torana tx submit` takes (docs/instructions.md). Found by its file name (src/modules/examples.ts):
// the CLI's schema tests check each one against the published schema and the codec, and write them into
// the generated section of this module's docs page, `page`.

import { BOB } from '../../cli/example-world.js';
import type { Json } from '../../codec/codec.js';

export const page = 'docs/content.md';

/** A bundle id of the examples' world. */
const BUNDLE = '5d0c7e0f6c4d8a9b1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d';

export const examples: Readonly<Record<string, Json>> = {
  RegisterContentBundle: {
    kind: 'RegisterContentBundle',
    manifest: [
      {
        path: 'index.txt',
        size: '12',
        sha256: 'a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447',
        content_type: 'text/plain; charset=utf-8',
      },
    ],
    access: { kind: 'Public' },
  },
  SetContentBundleAccess: {
    kind: 'SetContentBundleAccess',
    bundle: BUNDLE,
    access: { kind: 'AllowList', accounts: [BOB] },
  },
  RetireContentBundle: { kind: 'RetireContentBundle', bundle: BUNDLE },
};
