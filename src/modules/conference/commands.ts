// `torana conference …` (docs/conference.md "Routes and CLI"): create, join, leave, record usage, end
// and show a call; register a relay and report its health. Only declarations here; the code is in actions.ts, imported when a
// command runs (cli/lazy.ts).

import type { Command } from 'commander';
import { lazyAction } from '../../cli/lazy.js';
import { registerShieldCommand } from './shield-commands.js';

const actions = () => import('./actions.js');

function options(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'gateway URL (default: the node running in --dir, else client.json)')
    .option('--account <id>', 'account to sign as (default from client.json)')
    .option('--key-file <file>', 'key file of that account (default from client.json)');
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerConferenceCommands(program: Command): void {
  const conf = program.command('conference').description('conference calls on the ledger');
  options(conf.command('create <call-id>').description('create a call (<domain>:<call name>) hosted by you'))
    .requiredOption('--title <text>', 'title (at most 256 bytes)')
    .option('--description <text>', 'description (at most 4096 bytes)', '')
    .option('--policy <policy>', 'public or authenticated', 'authenticated')
    .option('--start <ms>', 'scheduled start, Unix ms (default: now)')
    .option('--end <ms>', 'scheduled end, Unix ms')
    .option('--max-participants <n>', 'roster capacity', '16')
    .option('--gas-rate <amount>', 'gas per minute of usage, in the native asset', '0')
    .option('--billing-account <id>', 'account billed for usage (default: you)')
    .option('--metadata <json>', 'metadata object, e.g. \'{"topic":"ledgers"}\'')
    .option('--relay <relay[:weight]>', 'a hop of the relay manifest, in order (3 to 16; repeat)', collect)
    .option('--manifest-ttl-ms <ms>', 'how long the relay manifest stays valid', '3600000')
    .option('--private', 'a zk-roster-v1 call: the roster holds --invite commitments, not accounts')
    .option(
      '--invite <commitment>',
      'private: a roster commitment (torana conference roster-key; repeat)',
      collect,
    )
    .option(
      '--note-file <file>',
      'private: the shielded note paying the entry fee (default <dir>/shielded-note.json)',
    )
    .addHelpText(
      'after',
      '\nRelay keys are read from the node (GET /v1/conference/relays/{id}).\nExample:\n  torana conference create wonderland:standup --title Standup --policy public --gas-rate 0.5 --relay r1 --relay r2 --relay r3\n',
    )
    .action(lazyAction(actions, 'create'));
  options(conf.command('join <call-id>').description('join a call yourself'))
    .option('--answer <hex>', 'encrypted signalling answer (hex, at most 16 KiB)')
    .option('--private', 'join a private call with a roster proof (and the entry fee from a note)')
    .option('--roster-key <file>', 'private: your roster key (default <dir>/roster-key.json)')
    .option(
      '--note-file <file>',
      'private: the shielded note paying the entry fee (default <dir>/shielded-note.json)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  torana conference join wonderland:standup\n  torana conference join wonderland:board --private\n',
    )
    .action(lazyAction(actions, 'join'));
  options(conf.command('leave <call-id>').description('leave a call'))
    .option('--private', 'leave a private call with a roster proof')
    .option('--roster-key <file>', 'private: your roster key (default <dir>/roster-key.json)')
    .action(lazyAction(actions, 'leave'));
  conf
    .command('roster-key')
    .description('a new secret roster key for private calls; prints the commitment a host invites')
    .option('--out <file>', 'where to keep the key (default <dir>/roster-key.json; never overwritten)')
    .addHelpText('after', '\nExample:\n  torana conference roster-key --json\n')
    .action(lazyAction(actions, 'rosterKey'));
  options(
    conf.command('usage <call-id>').description('record a usage segment (host or manifest relay operator)'),
  )
    .requiredOption('--segment <n>', 'segment number, strictly increasing per call')
    .requiredOption('--duration-ms <ms>', 'metered duration of the segment')
    .option('--participant <id>', 'the participant the segment is for')
    .option('--billed-gas <amount>', "billed gas (default: ceil(duration × the call's rate / 60000))")
    .addHelpText(
      'after',
      '\nExample:\n  torana conference usage wonderland:standup --segment 1 --duration-ms 60000\n',
    )
    .action(lazyAction(actions, 'usage'));
  options(conf.command('end <call-id>').description('end a call (host only)')).action(
    lazyAction(actions, 'end'),
  );
  options(
    conf
      .command('signals <call-id>')
      .description('signalling offers and committed answers of a call you host or take part in'),
  )
    .option('--after <id>', 'only signals after this id (the cursor of a previous page)', '0')
    .option('--follow', 'keep following new signals (server-sent events)')
    .option('--open', 'decrypt the answers addressed to you (the host) and print their descriptions')
    .addHelpText(
      'after',
      '\nEnvelopes stay encrypted unless --open; the node never sees them in plaintext.\nExamples:\n  torana conference signals wonderland:standup --json\n  torana conference signals wonderland:standup --follow --open --json\n',
    )
    .action(lazyAction(actions, 'signals'));
  const relay = conf
    .command('relay')
    .description('media relays: register one you operate, report its health');
  options(relay.command('register <relay-id>').description('register a relay operated by you'))
    .requiredOption('--public-key <hex>', "the relay's X25519 public key (64 hex digits)")
    .requiredOption('--endpoint <url>', 'where clients reach it, e.g. wss://eu-1.example')
    .option('--region <text>', 'a region label, e.g. eu', '')
    .addHelpText(
      'after',
      '\nExample:\n  torana conference relay register eu-1 --public-key <64 hex> --endpoint wss://eu-1.example --region eu\n',
    )
    .action(lazyAction(actions, 'relayRegister'));
  options(relay.command('health <relay-id>').description("report a relay's health (its operator only)"))
    .option('--unavailable', 'the relay is down (default: available)')
    .option('--latency-ms <n>', 'measured latency in ms', '0')
    .option('--loss-permille <n>', 'packet loss in permille, 0 to 1000', '0')
    .addHelpText(
      'after',
      '\nExample:\n  torana conference relay health eu-1 --latency-ms 18 --loss-permille 2\n',
    )
    .action(lazyAction(actions, 'relayHealth'));
  options(conf.command('show <call-id>').description('a call: settings, manifest, roster, usage and status'))
    .addHelpText('after', '\nExample:\n  torana conference show wonderland:standup --json\n')
    .action(lazyAction(actions, 'show'));
  // `torana shield`: the notes private calls pay their entry fee from (shield-commands.ts).
  registerShieldCommand(program);
}
