// What the fuzzer needs to know about one decoder: how to generate inputs (random and
// mutated valid ones), how to run the decoder the way the node runs it, and which failure codes are
// typed. Pass criteria (docs/design/testing.md "codec fuzzing"): only typed errors, under 100 ms per input,
// no allocation above the bound below, and a canonical round trip for every accepted input.

import type fc from 'fast-check';

/** docs/design/testing.md: every fuzz input is answered within this. */
export const INPUT_MS_MAX = 100;
/** An input over a bound is measured again this many times; the best run counts (a GC pause is not the decoder). */
export const SLOW_RETRIES = 3;
/** Heap + ArrayBuffer growth allowed while decoding one input: a fixed slack plus a multiple of its size. */
export const ALLOC_SLACK_BYTES = 8 * 1024 * 1024;
export const ALLOC_BYTES_PER_INPUT_BYTE = 256;

export interface Outcome {
  accepted: boolean;
  /** The typed failure code (rejected inputs). */
  code?: string;
  /** A broken invariant of an accepted input (round trip, canonical form), or of a rejection's shape. */
  problem?: string;
}

export interface FuzzTarget<I, R = unknown> {
  name: string;
  /** Random and mutated inputs (and some valid ones unchanged). */
  inputs: fc.Arbitrary<I>;
  /** Runs the decoder as the node does (timed, allocation measured); may throw, which is a finding. */
  decode(input: I): R;
  /** Checks the result: typed failure code, or the invariants of an accepted input (not timed). */
  judge(input: I, result: R): Outcome;
  /** Every typed failure code this decoder may answer with. */
  codes: ReadonlySet<string>;
  /** Size of an input in bytes (allocation bound, reports). */
  size(input: I): number;
  /** JSON form of an input for regressions/ (and back). */
  save(input: I): Record<string, unknown>;
  load(saved: Record<string, unknown>): I;
}

// biome-ignore lint/suspicious/noExplicitAny: targets of every input type are listed together.
export type AnyTarget = FuzzTarget<any, any>;
