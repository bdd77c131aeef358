// The node's whole error registry against docs/errors.md: the gateway's codes plus those the node adds
// at composition time (node/serve.ts: the ledger's and the modules' own, descriptor `gatewayErrors`).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createErrorRegistry } from '../gateway/errors.js';
import { LEDGER_ERRORS } from '../gateway/ledger-errors.js';
import { moduleGatewayErrors } from './families.js';

const ROW = /^\|\s*`([a-z0-9_]+)`\s*\|\s*(\d{3})\s*\|\s*(.+?)\s*\|$/;

/** Every `| code | HTTP status | meaning |` row of docs/errors.md (ledger rejection numbers are not HTTP rows). */
function documented(): Map<string, number> {
  const text = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const rows = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = ROW.exec(line);
    if (m === null) continue;
    assert.ok(!rows.has(m[1]!), `docs/errors.md lists ${m[1]} twice`);
    rows.set(m[1]!, Number(m[2]));
  }
  return rows;
}

describe("the node's error registry", () => {
  it('docs/errors.md: all HTTP tables together are exactly the registry of a node', () => {
    const specs = createErrorRegistry({ ...LEDGER_ERRORS, ...moduleGatewayErrors() }).specs;
    const rows = documented();
    assert.deepEqual([...rows.keys()].sort(), Object.keys(specs).sort());
    for (const [code, status] of rows) assert.equal(status, specs[code]!.status, code);
  });

  it('the modules add their own codes (a module route answers with a code the gateway does not name)', () => {
    const modules = moduleGatewayErrors();
    assert.ok(Object.keys(modules).length > 0);
    for (const code of Object.keys(modules)) assert.ok(!Object.hasOwn(LEDGER_ERRORS, code), code);
  });
});
