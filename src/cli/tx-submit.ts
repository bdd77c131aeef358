// `torana tx submit`: any instructions, given as JSON (docs/instructions.md), checked against the
// published schema (instruction-check.ts), decoded by the codec, signed and submitted like every other
// client command. Nothing is sent unless every instruction is well formed (exit 2 names each problem).

import { readFile } from 'node:fs/promises';
import { CodecError } from '../codec/errors.js';
import { type Instruction, InstructionCodec } from '../model/instructions.js';
import { type Flags, submit } from './client-actions.js';
import { CliError, EXIT } from './errors.js';
import { InstructionChecker, problemLines } from './instruction-check.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The instructions of a JSON text, or a usage error naming every problem. */
export function parseInstructions(text: string, source: string): Instruction[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new CliError('invalid_json', `${source}: not JSON (${(e as Error).message})`, EXIT.usage);
  }
  const invalid = (problems: { index?: number; path: string; message: string }[]) =>
    new CliError(
      'invalid_instructions',
      `${source}: ${problems.length === 1 ? 'one problem' : `${problems.length} problems`}, nothing sent\n  ${problemLines(problems).join('\n  ')}`,
      EXIT.usage,
      { problems },
    );
  const problems = new InstructionChecker().check(doc);
  if (problems.length > 0) throw invalid(problems);
  return (doc as unknown[]).map((j, index) => {
    try {
      return InstructionCodec.fromJson(j, `instructions[${index}]`);
    } catch (e) {
      // What the schema cannot say (an id's syntax, a key's checksum): the codec's own check.
      if (e instanceof CodecError || e instanceof RangeError)
        throw invalid([{ index, path: '', message: e.message }]);
      throw e;
    }
  });
}

export async function txSubmit(flags: Flags & { file?: string }): Promise<void> {
  if (flags.file === undefined && process.stdin.isTTY)
    throw new CliError(
      'invalid_argument',
      'give the instructions with --file <file.json> or on standard input',
      EXIT.usage,
    );
  let text: string;
  try {
    text = flags.file === undefined ? await readStdin() : await readFile(flags.file, 'utf8');
  } catch (e) {
    throw new CliError('file_unreadable', `cannot read ${flags.file}: ${(e as Error).message}`, EXIT.error);
  }
  const instructions = parseInstructions(text, flags.file ?? 'standard input');
  await submit(flags, () => instructions);
}
