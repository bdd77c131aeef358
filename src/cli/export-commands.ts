// `torana export --nats <url> --from <gateway url>` (docs/export.md): committed events to NATS
// JetStream. Declaration only; the code is in export-actions.ts and src/export/, imported when it runs.

import type { Command } from 'commander';
import {
  DUPLICATE_WINDOW_MS_DEFAULT,
  IN_FLIGHT_MAX_DEFAULT,
  STREAM_DEFAULT,
  SUBJECT_PREFIX_DEFAULT,
} from '../export/limits.js';
import { lazyAction } from './lazy.js';

const actions = () => import('./export-actions.js');

export function registerExportCommands(program: Command): void {
  program
    .command('export')
    .description("publish the node's committed events to NATS JetStream, resuming where the stream ends")
    .requiredOption('--nats <url>', 'NATS server URL, e.g. nats://127.0.0.1:4222')
    .requiredOption('--from <url>', 'gateway URL of the node whose events are exported')
    .option('--stream <name>', 'JetStream stream (created when missing; one per chain)', STREAM_DEFAULT)
    .option('--subject-prefix <prefix>', 'first token(s) of every subject', SUBJECT_PREFIX_DEFAULT)
    .option('--in-flight-max <n>', 'unacknowledged publishes at most', String(IN_FLIGHT_MAX_DEFAULT))
    .option(
      '--duplicate-window-ms <ms>',
      "the stream's duplicate window",
      String(DUPLICATE_WINDOW_MS_DEFAULT),
    )
    .option(
      '--since <id|now>',
      'when the stream holds no event of the chain: start after this event id, or live',
      '0',
    )
    .addHelpText(
      'after',
      '\nSubjects: <prefix>.<chain>.events.<kind>.<variant>.<domain> (docs/export.md).\n' +
        'Example:\n  torana export --nats nats://127.0.0.1:4222 --from http://127.0.0.1:8080\n',
    )
    .action(lazyAction(actions, 'natsExport'));
}
