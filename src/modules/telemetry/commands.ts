// `torana telemetry …` (docs/telemetry.md): this node's view of its peers and of block propagation.
// Declarations only; the code is in actions.ts, imported when a command runs (cli/lazy.ts).

import type { Command } from 'commander';
import { lazyAction } from '../../cli/lazy.js';

const actions = () => import('./actions.js');

export function registerTelemetryCommands(program: Command): void {
  const t = program.command('telemetry').description("the node's view of its peers and of block propagation");
  t.command('peers')
    .description('this node and each configured peer, connected or not')
    .option('--url <url>', 'gateway URL (default: the node running in --dir, else client.json)')
    .addHelpText('after', '\nExample:\n  torana telemetry peers --json\n')
    .action(lazyAction(actions, 'peers'));
  t.command('propagation')
    .description('how the newest block spread, from what the node observed')
    .option('--url <url>', 'gateway URL (default: the node running in --dir, else client.json)')
    .action(lazyAction(actions, 'propagation'));
}
