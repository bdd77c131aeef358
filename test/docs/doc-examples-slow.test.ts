// The slow doc pages, as doc-examples.test.ts runs the other pages (page-tests.ts): README.md and
// docs/consensus.md (each a local network on the same ports, so in one file), docs/conference.md (its
// private block proves with the zk circuits) and docs/iso20022.md (its walk-through starts a node of its
// own with the bridge).

import { describe } from 'node:test';
import { pagesOf, pageTests } from './page-tests.js';
import { docBlocks } from './pages.js';

describe('doc examples run: the slow pages', () => {
  pageTests(pagesOf(docBlocks(), 'doc-examples-slow.test.ts'));
});
