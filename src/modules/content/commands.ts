// `torana content …` (docs/content.md): bundles of files served by hash. Declarations only; the code is
// in actions.ts, imported when a command runs (cli/lazy.ts), so `torana --help` stays light. Every
// command takes `--json` (cli/main.ts gives it to all).

import type { Command } from 'commander';
import { clientOptions } from '../../cli/client-options.js';
import { lazyAction } from '../../cli/lazy.js';

const actions = () => import('./actions.js');

export function registerContentCommands(program: Command): void {
  const c = program
    .command('content')
    .description(
      'content bundles: register a manifest of files, upload them to a node, get, set access, retire',
    );
  const cmd = (usage: string, what: string) => clientOptions(c.command(usage).description(what));
  cmd(
    'register <files...>',
    'register a bundle of these files (their paths relative to --base; prints its id)',
  )
    .option('--base <dir>', 'the folder the bundle paths are relative to (default: the current folder)')
    .option('--type <path=media-type...>', 'the media type of a path (default: guessed from its extension)')
    .option('--holders-of <definition>', 'only holders of this asset may download')
    .option('--allow <accounts>', 'only these accounts (comma-separated) may download')
    .addHelpText('after', '\nExample:\n  torana content register --base site site/index.html site/logo.png\n')
    .action(lazyAction(actions, 'contentRegister'));
  cmd(
    'upload <bundle> <files...>',
    'upload files of the bundle to this node (owner; paths relative to --base)',
  )
    .option('--base <dir>', 'the folder the bundle paths are relative to (default: the current folder)')
    .action(lazyAction(actions, 'contentUpload'));
  cmd('get <bundle> [path]', 'the bundle (no path) or the bytes of one of its files')
    .option('--out <file>', 'write the bytes to this file (default: standard output)')
    .option('--range <range>', "one byte range, e.g. 'bytes=0-99'")
    .option('--signed', 'sign the request (restricted bundles)')
    .action(lazyAction(actions, 'contentGet'));
  cmd(
    'access <bundle> <rule>',
    "who may download: 'public', 'holders:<definition>' or 'allow:<a>,<b>' (owner)",
  ).action(lazyAction(actions, 'contentAccess'));
  cmd('retire <bundle>', 'retire the bundle for good: its files are no longer served (owner)').action(
    lazyAction(actions, 'contentRetire'),
  );
}
