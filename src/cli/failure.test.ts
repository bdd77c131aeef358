// How a failed command reports itself (failure.ts): the code once, the JSON form, the exit codes.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CommanderError } from 'commander';
import { ToranaApiError, TransactionRejectedError } from '../sdk/errors.js';
// The registry adds the modules' rejection forms, as the CLI's main does through modules/commands.ts.
import '../modules/registry.js';
import { CliError, EXIT } from './errors.js';
import { failureOf } from './failure.js';

describe('CLI failures', () => {
  it('names the code once: the SDK message starts with it, the line does not repeat it', () => {
    const f = failureOf(new ToranaApiError(404, 'not_found', 'no such account', { id: 'x@y' }));
    assert.deepEqual(f, {
      label: 'error',
      code: 'not_found',
      message: 'no such account',
      details: { id: 'x@y', http_status: 404 },
      exitCode: EXIT.error,
    });
  });

  it('reports a rejection with its code, transaction and block, exit 3', () => {
    const reason = { code: 'insufficient_funds', message: 'balance 1 below 2' };
    const f = failureOf(new TransactionRejectedError('ab'.repeat(32), reason as never, 7));
    assert.equal(f.label, 'rejected');
    assert.equal(f.code, 'insufficient_funds');
    assert.equal(f.message, `transaction ${'ab'.repeat(32)} rejected: balance 1 below 2`);
    assert.deepEqual(f.details, { tx_hash: 'ab'.repeat(32), rejection: reason, block_height: 7 });
    assert.equal(f.exitCode, EXIT.rejected);
  });

  it('shows the amounts of a rejection at their scale; details keep the committed text', () => {
    const committed =
      'account cap 200 (window tx, units at scale 2) of usd#w exceeded by a@w: 350 with this transfer';
    const reason = { code: 'transfer_cap_exceeded', message: committed };
    const f = failureOf(new TransactionRejectedError('cd'.repeat(32), reason as never, 9));
    assert.equal(
      f.message,
      `transaction ${'cd'.repeat(32)} rejected: account cap 2.00 (window tx) of usd#w exceeded by a@w: 3.50 with this transfer`,
    );
    assert.equal((f.details['rejection'] as { message: string }).message, committed);
  });

  it("gives commander's usage errors a snake_case code and exit 2", () => {
    const e = new CommanderError(1, 'commander.unknownOption', "error: unknown option '--nope'");
    assert.deepEqual(failureOf(e), {
      label: 'error',
      code: 'unknown_option',
      message: "unknown option '--nope'",
      details: {},
      exitCode: EXIT.usage,
    });
  });

  it("keeps a CLI error's exit code and details; anything else is exit 1", () => {
    const f = failureOf(new CliError('invalid_instructions', 'bad', EXIT.usage, { problems: [] }));
    assert.deepEqual([f.code, f.exitCode, f.details], ['invalid_instructions', 2, { problems: [] }]);
    const g = failureOf(new Error('boom'));
    assert.deepEqual([g.code, g.message, g.exitCode], ['internal_error', 'boom', 1]);
  });
});
