// The published instruction schema and the examples of docs/instructions.md, against the codec they are
// generated from. After an intended change of an instruction (or a new kind), rewrite both files with
//   UPDATE_GOLDEN=1 node --conditions=torana-source --import tsx --test src/cli/instruction-schema.test.ts

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { encode } from '../codec/frame.js';
import { INSTRUCTION_KINDS, InstructionCodec } from '../model/instructions.js';
import { InstructionChecker, problemLines } from './instruction-check.js';
import { INSTRUCTION_EXAMPLES } from './instruction-examples.js';
import {
  examplesSection,
  INSTRUCTION_SCHEMA_PATH,
  instructionSchemaText,
  schemaKinds,
  withExamplesSection,
} from './instruction-schema.js';

const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const SCHEMA_FILE = root(INSTRUCTION_SCHEMA_PATH);
const DOC_FILE = root('docs/instructions.md');

if (process.env['UPDATE_GOLDEN'] === '1') {
  writeFileSync(SCHEMA_FILE, instructionSchemaText());
  const section = examplesSection(INSTRUCTION_EXAMPLES, INSTRUCTION_KINDS);
  writeFileSync(DOC_FILE, withExamplesSection(readFileSync(DOC_FILE, 'utf8'), section));
}

describe('the published instruction schema', () => {
  it('is what the codec definitions generate today, byte for byte', () => {
    assert.equal(
      readFileSync(SCHEMA_FILE, 'utf8'),
      instructionSchemaText(),
      `${INSTRUCTION_SCHEMA_PATH} is stale: regenerate it (see this file's header)`,
    );
  });

  it('lists every instruction kind of the build, core and modules, in tag order', () => {
    const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'));
    assert.deepEqual(schemaKinds(schema), [...INSTRUCTION_KINDS]);
    assert.ok(
      INSTRUCTION_KINDS.includes('RegisterMultisig') && INSTRUCTION_KINDS.includes('RegisterTrigger'),
    );
  });
});

describe('the instruction examples (docs/instructions.md)', () => {
  const checker = new InstructionChecker();

  it('has one example per kind, each valid against the schema and encodable by the codec', () => {
    assert.deepEqual(Object.keys(INSTRUCTION_EXAMPLES).sort(), [...INSTRUCTION_KINDS].sort());
    for (const kind of INSTRUCTION_KINDS) {
      const example = INSTRUCTION_EXAMPLES[kind];
      assert.deepEqual(problemLines(checker.check([example])), [], kind);
      const value = InstructionCodec.fromJson(example, kind);
      assert.equal(value.kind, kind);
      assert.ok(encode(InstructionCodec, value).length > 1, kind);
      // The JSON form reads back as given: the examples are in the form a committed transaction shows.
      assert.deepEqual(InstructionCodec.toJson(value), example, kind);
    }
  });

  it('are listed in the doc as generated', () => {
    const doc = readFileSync(DOC_FILE, 'utf8');
    const section = examplesSection(INSTRUCTION_EXAMPLES, INSTRUCTION_KINDS);
    assert.ok(doc.includes(section), 'docs/instructions.md is stale: regenerate it (see this file header)');
  });

  it('names the position and field of what is wrong', () => {
    const bad = [
      INSTRUCTION_EXAMPLES.Log,
      { kind: 'TransferAsset', source: 'x', destination: 'y' },
      { kind: 'NoSuchKind' },
      { kind: 'Log', level: { kind: 'Info' }, message: 'm', extra: 1 },
      7,
    ];
    assert.deepEqual(problemLines(checker.check(bad)), [
      "instructions[1]: must have required property 'amount'",
      'instructions[2]/kind: unknown instruction kind "NoSuchKind" (the kinds are listed in docs/instructions.md)',
      'instructions[3]: must NOT have additional properties (extra)',
      'instructions[4]: expected an object with a "kind"',
    ]);
    assert.deepEqual(problemLines(checker.check({ kind: 'Log' })), [
      'instructions: expected a JSON array of instructions',
    ]);
    const amount = problemLines(
      checker.check([{ ...(INSTRUCTION_EXAMPLES.MintAsset as object), amount: 5 }]),
    );
    assert.deepEqual(amount, ['instructions[0]/amount: must be string']);
  });
});
