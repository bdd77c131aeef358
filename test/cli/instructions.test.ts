// Every instruction kind of the build, core and modules, sent through the command line to a served node
// (`torana tx submit` with the kind's documented example, docs/instructions.md): each answer must be a
// ledger outcome — committed, or rejected with a rejection code — never a usage or CLI error. A new kind
// without an example fails src/cli/instruction-schema.test.ts (the core's in src/cli/instruction-examples.ts, a module's in its examples.ts); one the CLI cannot encode or
// send fails here. Also the submit command's own refusals: bad JSON, a bad field, no input.
// test-runner: own process: in a batch its suite was cancelled before it started (event loop already empty).

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../../src/modules/registry.js';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { allInstructionExamples, BOB } from '../../src/cli/instruction-examples.js';
import { INSTRUCTION_KINDS } from '../../src/model/instructions.js';
import { moduleExamples } from '../../src/modules/examples.js';
import { runCli } from '../helpers/cli-in-process.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const INSTRUCTION_EXAMPLES = allInstructionExamples(await moduleExamples());

describe('torana tx submit: every instruction kind', () => {
  let t: ServedTestNode;
  let common: string[];
  before(async () => {
    t = await startServedNode();
    common = ['--dir', t.dir, '--url', t.url];
  });
  after(async () => t.stopAll());

  const file = async (name: string, body: unknown) => {
    const path = join(t.dir, name);
    await writeFile(path, typeof body === 'string' ? body : JSON.stringify(body));
    return path;
  };

  it('sends each kind and gets a ledger outcome for each', async () => {
    // The examples' world (its second account), registrations first and removals last, so that most
    // examples find what they name.
    const world = [INSTRUCTION_EXAMPLES.RegisterDomain, { kind: 'RegisterAccount', id: BOB, metadata: {} }];
    const setup = await runCli(['tx', 'submit', '--file', await file('world.json', world), ...common]);
    assert.equal(setup.code, 0, setup.err);
    const order = [...INSTRUCTION_KINDS].sort(
      (a, b) => Number(a.startsWith('Unregister')) - Number(b.startsWith('Unregister')),
    );
    const outcomes: Record<string, string> = {};
    for (const kind of order) {
      const path = await file(`${kind}.json`, [INSTRUCTION_EXAMPLES[kind]]);
      const r = await runCli(['tx', 'submit', '--file', path, '--json', ...common]);
      if (r.code === 0) {
        assert.equal(JSON.parse(r.out).status, 'Committed', kind);
        outcomes[kind] = 'committed';
      } else {
        assert.equal(r.code, 3, `${kind}: not a ledger outcome (exit ${r.code}): ${r.err}`);
        const e = JSON.parse(r.err) as { code: string; details: { tx_hash: string } };
        assert.match(e.code, /^[a-z0-9_]+$/, kind);
        assert.match(e.details.tx_hash, /^[0-9a-f]{64}$/, kind);
        outcomes[kind] = e.code;
      }
    }
    const committed = Object.values(outcomes).filter((o) => o === 'committed').length;
    console.log(
      `${order.length} kinds sent: ${committed} committed, ${order.length - committed} rejected\n` +
        Object.entries(outcomes)
          .map(([k, o]) => `  ${k}: ${o}`)
          .join('\n'),
    );
    assert.equal(Object.keys(outcomes).length, INSTRUCTION_KINDS.length);
    for (const kind of [
      'RegisterAccount',
      'RegisterRole',
      'GrantPermission',
      'MintAsset',
      'TransferAsset',
      'RegisterMultisig',
    ])
      assert.equal(outcomes[kind], 'committed', `${kind} commits in the examples' world`);
  });

  it('refuses malformed input with exit 2, naming each problem, and sends nothing', async () => {
    const height = t.node.ledger.height();
    const notJson = await runCli(['tx', 'submit', '--file', await file('bad.json', '[{'), ...common]);
    assert.equal(notJson.code, 2, notJson.err);
    assert.match(notJson.err, /^error \[invalid_json\]: .*bad\.json: not JSON/);
    const bad = [INSTRUCTION_EXAMPLES.Log, { ...(INSTRUCTION_EXAMPLES.MintAsset as object), amount: 'ten' }];
    const r = await runCli(['tx', 'submit', '--file', await file('bad2.json', bad), '--json', ...common]);
    assert.equal(r.code, 2, r.err);
    const e = JSON.parse(r.err) as { code: string; message: string; details: { problems: unknown[] } };
    assert.equal(e.code, 'invalid_instructions');
    assert.deepEqual(e.details.problems, [
      { index: 1, path: '/amount', message: 'must match pattern "^(0|[1-9][0-9]*)(\\.[0-9]+)?$"' },
    ]);
    // What only the codec checks (an account id's syntax) is refused the same way.
    const badId = [{ kind: 'RegisterAccount', id: 'nobody', metadata: {} }];
    const c = await runCli(['tx', 'submit', '--file', await file('bad3.json', badId), ...common]);
    assert.equal(c.code, 2, c.err);
    assert.match(
      c.err,
      /error \[invalid_instructions\]: .*one problem, nothing sent\n {2}instructions\[0\]: /,
    );
    assert.equal(t.node.ledger.height(), height, 'nothing was committed');
  });
});
