// Whether the words after `torana` in a doc name a command the CLI declares and only options it takes:
// a cheap check of every shell block, run or skipped, against the commander program (src/cli/main.ts).

import type { Command } from 'commander';

/** `--name` of a word such as `--since`, `[--remove]`, `--listen=0.0.0.0:9200` or `[--holder`. */
function optionName(word: string): string | undefined {
  const m = /^\[?(--?[A-Za-z][A-Za-z0-9-]*)/.exec(word);
  return m?.[1];
}

function takes(cmd: Command, name: string): boolean {
  for (let c: Command | null = cmd; c !== null; c = c.parent)
    if (c.options.some((o) => o.long === name || o.short === name)) return true;
  return name === '--help' || name === '-h';
}

/** What is wrong with `torana <args>` (empty when the CLI declares all of it). */
export function usageProblems(program: Command, args: readonly string[]): string[] {
  let cmd = program;
  let i = 0;
  // Global options may come before the command (`torana --as alice …`).
  while (i < args.length && optionName(args[i]!) !== undefined) i += args[i]!.includes('=') ? 1 : 2;
  for (; i < args.length; i++) {
    const sub = cmd.commands.find((c) => c.name() === args[i] || c.aliases().includes(args[i]!));
    if (sub === undefined) break;
    cmd = sub;
  }
  const path = ['torana', ...(cmd.name() === 'torana' ? [] : commandPath(cmd))].join(' ');
  const problems: string[] = [];
  if (cmd === program) return [`"torana ${args[0] ?? ''}": no such command`];
  if (cmd.commands.length > 0 && !hasAction(cmd))
    problems.push(`"${path} ${args[i] ?? ''}": no such command (${path} has ${subNames(cmd)})`);
  for (const w of args.slice(i)) {
    if (/^\d*[<>]/.test(w)) break; // a redirection ends the arguments
    const name = optionName(w);
    if (name !== undefined && !takes(cmd, name)) problems.push(`"${path}" has no option ${name}`);
  }
  return problems;
}

function commandPath(cmd: Command): string[] {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names;
}

function hasAction(cmd: Command): boolean {
  return (cmd as unknown as { _actionHandler: unknown })._actionHandler != null;
}

function subNames(cmd: Command): string {
  return cmd.commands.map((c) => c.name()).join(', ');
}
