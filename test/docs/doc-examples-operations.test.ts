// docs/operations.md's runnable blocks, as doc-examples.test.ts runs the other pages (page-tests.ts): the
// longest page (a genesis ceremony, three machines in network namespaces, TLS, a backup restored, a
// snapshot joined), in a file of its own.

import { describe } from 'node:test';
import { pagesOf, pageTests } from './page-tests.js';
import { docBlocks } from './pages.js';

describe('doc examples run: operations', () => {
  pageTests(pagesOf(docBlocks(), 'doc-examples-operations.test.ts'));
});
