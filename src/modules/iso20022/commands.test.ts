// `torana iso20022 …` and the bridge's switch of `torana start` come from the module's commands.ts: once
// registered, `start --iso20022` sets `iso20022.enabled` (cli/node-commands.ts addStartSwitch), and the
// command group is there with its four commands.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Command } from 'commander';
import {
  addStartSwitch,
  registerNodeCommands,
  START_SWITCHES,
  startSwitchOverrides,
} from '../../cli/node-commands.js';
import { registerIsoCommands } from './commands.js';

describe('torana iso20022 commands', () => {
  it('adds --iso20022 to torana start, mapped to iso20022.enabled, and the command group', () => {
    const program = new Command();
    registerNodeCommands(program);
    const start = program.commands.find((c) => c.name() === 'start');
    assert.ok(start !== undefined);
    assert.ok(!start.options.some((o) => o.long === '--iso20022'), 'the core declares no bridge flag');
    registerIsoCommands(program);
    assert.ok(start.options.some((o) => o.long === '--iso20022'));
    assert.equal(START_SWITCHES.get('iso20022'), 'iso20022.enabled');
    start.parseOptions(['--iso20022']);
    assert.equal(start.opts().iso20022, true);
    assert.deepEqual(startSwitchOverrides(start.opts()), { 'iso20022.enabled': true });
    assert.deepEqual(startSwitchOverrides({ port: '9000' }), {});
    const iso = program.commands.find((c) => c.name() === 'iso20022');
    assert.deepEqual(
      iso?.commands.map((c) => c.name()),
      ['submit', 'status', 'report', 'verify-audit'],
    );
  });

  it('refuses a start switch before torana start is registered', () => {
    assert.throws(
      () => addStartSwitch(new Command(), 'demo', 'demo.enabled', 'a demo'),
      /--demo: the start command is not registered yet/,
    );
  });
});
