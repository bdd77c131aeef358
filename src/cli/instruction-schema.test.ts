// The published instruction schema and the examples (docs/instructions.md for the core's kinds,
// each module's docs page for its own), against the codec they are
// generated from. After an intended change of an instruction (or a new kind), rewrite the files with
//   UPDATE_GOLDEN=1 node --conditions=torana-source --import tsx --test src/cli/instruction-schema.test.ts

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { encode } from '../codec/frame.js';
import { INSTRUCTION_KINDS, InstructionCodec } from '../model/instructions.js';
import { moduleExamples } from '../modules/examples.js';
import { InstructionChecker, problemLines } from './instruction-check.js';
import { allInstructionExamples, CORE_INSTRUCTION_EXAMPLES } from './instruction-examples.js';
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
const MODULES = await moduleExamples();
const INSTRUCTION_EXAMPLES = allInstructionExamples(MODULES);

/** Each page with a generated examples section and the section it must hold: the core's kinds in
 * docs/instructions.md, each module's on its own page (kinds in tag order). */
function examplePages(): { file: string; section: string }[] {
  const of = (byKind: Readonly<Record<string, unknown>>) =>
    examplesSection(
      byKind,
      INSTRUCTION_KINDS.filter((k) => byKind[k] !== undefined),
    );
  return [
    { file: DOC_FILE, section: of(CORE_INSTRUCTION_EXAMPLES) },
    ...MODULES.map((m) => ({ file: root(m.page), section: of(m.examples) })),
  ];
}

if (process.env['UPDATE_GOLDEN'] === '1') {
  writeFileSync(SCHEMA_FILE, instructionSchemaText());
  for (const { file, section } of examplePages())
    writeFileSync(file, withExamplesSection(readFileSync(file, 'utf8'), section));
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

  it("are listed in the docs as generated: the core's in docs/instructions.md, a module's on its page", () => {
    for (const { file, section } of examplePages())
      assert.ok(
        readFileSync(file, 'utf8').includes(section),
        `${file} is stale: regenerate it (see this file's header)`,
      );
  });

  it('come from exactly one place per kind (the core or one module)', () => {
    const owners = new Map<string, number>();
    for (const byKind of [CORE_INSTRUCTION_EXAMPLES, ...MODULES.map((m) => m.examples)])
      for (const kind of Object.keys(byKind)) owners.set(kind, (owners.get(kind) ?? 0) + 1);
    assert.deepEqual(
      [...owners].filter(([, n]) => n !== 1),
      [],
    );
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
