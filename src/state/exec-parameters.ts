// SetParameter and Log (README.md §Instructions). Parameters bound what every peer accepts, so a value
// of 0 or an absurd one would stall the chain: each must lie in 1..its named maximum.

import type { Json } from '../codec/codec.js';
import { nameProblem } from '../model/names.js';
import {
  moduleParameterByKey,
  moduleParameterSpec,
  type Parameters,
  SHIELDED_NOTE_MIN_UNITS_KEY,
} from '../model/parameters.js';
import { transactionsShare } from '../model/weights.js';
import { authorize } from './authorize.js';
import { fail, type Handler } from './exec-context.js';
import { requirePoolParameterFree } from './exec-pool-lock.js';
import { SINGLETON_ID } from './keys.js';
import { jsonValueProblem } from './validate.js';

/** Upper bounds of the numeric chain parameters (the lower bound is 1 for all). */
export const PARAMETER_MAX = Object.freeze({
  BlockMaxTransactions: 100_000,
  BlockTimeMs: 3_600_000,
  CommitTimeMs: 3_600_000,
  MaxClockDriftMs: 3_600_000,
  /** The codec's default item limit: a longer transaction could not be decoded anyway. */
  TransactionMaxInstructions: 100_000,
  /** The codec's default byte limit. */
  TransactionMaxBytes: 16 * 1024 * 1024,
  /** Weight units are about microseconds (docs/cost-model.md): a minute of execution. */
  TransactionMaxWeight: 60_000_000,
  BlockMaxWeight: 60_000_000,
});

/**
 * Lower bounds above 1: a weight cap below what a SetParameter weighs would leave no way to raise it
 * again. A transaction at the cap must also fit the transactions' share of a block (four fifths of
 * BlockMaxWeight, docs/cost-model.md), checked whichever of the two changes.
 */
export const PARAMETER_MIN: Partial<Record<keyof typeof PARAMETER_MAX, number>> = Object.freeze({
  TransactionMaxWeight: 1_000,
  BlockMaxWeight: 1_250,
});
export const CUSTOM_PARAMETERS_MAX = 256;
/** ShieldedNoteMinUnits: 1..2^53-1 base units (notes are below 2^64 anyway). */
export const SHIELDED_NOTE_MIN_UNITS_MAX = Number.MAX_SAFE_INTEGER;
export const CUSTOM_PARAMETER_BYTES_MAX = 16 * 1024;

const FIELD = {
  BlockMaxTransactions: 'blockMaxTransactions',
  BlockTimeMs: 'blockTimeMs',
  CommitTimeMs: 'commitTimeMs',
  MaxClockDriftMs: 'maxClockDriftMs',
  TransactionMaxInstructions: 'transactionMaxInstructions',
  TransactionMaxBytes: 'transactionMaxBytes',
  TransactionMaxWeight: 'transactionMaxWeight',
  BlockMaxWeight: 'blockMaxWeight',
} as const satisfies Record<keyof typeof PARAMETER_MAX, keyof Parameters>;

export const setParameter: Handler<'SetParameter'> = (x, ins) => {
  const denied = authorize(x, [], 'CanSetParameters');
  if (denied) return denied;
  const p = ins.parameter;
  const current = x.view.parameters();
  let next: Parameters;
  const declared = moduleParameterSpec(p.kind);
  if (declared !== undefined) {
    // A module's parameter (model/parameters.ts ModuleParameter): kept among the custom parameters, so
    // the Parameters row keeps its layout.
    const value = (p as { value: number }).value;
    if (!Number.isSafeInteger(value) || value < declared.min || value > declared.max)
      return fail('invalid_parameter', `${p.kind} must be an integer in ${declared.min}..${declared.max}`);
    next = { ...current, custom: new Map(current.custom).set(declared.key, value) };
  } else if (p.kind === 'ShieldedNoteMinUnits') {
    if (!Number.isSafeInteger(p.value) || p.value < 1 || p.value > SHIELDED_NOTE_MIN_UNITS_MAX)
      return fail('invalid_parameter', `${p.kind} must be an integer in 1..${SHIELDED_NOTE_MIN_UNITS_MAX}`);
    next = { ...current, custom: new Map(current.custom).set(SHIELDED_NOTE_MIN_UNITS_KEY, p.value) };
  } else if (p.kind === 'Custom') {
    if (p.id === SHIELDED_NOTE_MIN_UNITS_KEY)
      return fail('invalid_parameter', `${p.id} is set by SetParameter ShieldedNoteMinUnits`);
    const owner = moduleParameterByKey(p.id);
    if (owner !== undefined) return fail('invalid_parameter', `${p.id} is set with ${owner.kind}`);
    const problem = nameProblem(p.id) ?? jsonValueProblem(p.payload, CUSTOM_PARAMETER_BYTES_MAX);
    if (problem !== undefined) return fail('invalid_parameter', `custom parameter ${p.id}: ${problem}`);
    const locked = requirePoolParameterFree(x, p.id, p.payload);
    if (locked) return locked;
    if (!current.custom.has(p.id) && current.custom.size >= CUSTOM_PARAMETERS_MAX) {
      return fail('execution_limit', `at most ${CUSTOM_PARAMETERS_MAX} custom parameters`);
    }
    next = { ...current, custom: new Map(current.custom).set(p.id, structuredClone(p.payload) as Json) };
  } else {
    // A core numeric parameter (a module's was handled above).
    const kind = p.kind as keyof typeof PARAMETER_MAX;
    const value = (p as { value: number }).value;
    const max = PARAMETER_MAX[kind];
    const min = PARAMETER_MIN[kind] ?? 1;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      return fail('invalid_parameter', `${kind} must be an integer in ${min}..${max}`);
    }
    next = { ...current, [FIELD[kind]]: value };
    if (next.transactionMaxWeight > transactionsShare(next.blockMaxWeight)) {
      return fail(
        'invalid_parameter',
        `TransactionMaxWeight ${next.transactionMaxWeight} must fit the transactions' share of a block (${transactionsShare(next.blockMaxWeight)} of BlockMaxWeight ${next.blockMaxWeight})`,
      );
    }
  }
  x.t.parameters.set(SINGLETON_ID, next);
  x.emit({ kind: 'ParameterChanged', parameter: p });
  return undefined;
};

export const log: Handler<'Log'> = (x, ins) => {
  x.emit({ kind: 'Logged', level: ins.level, message: ins.message });
  return undefined;
};
