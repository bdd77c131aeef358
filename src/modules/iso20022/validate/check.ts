// The result of one field check, before it is tied to a path (validate/fields.ts does that).

import type { IsoRule } from '../errors.js';

export type Check<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly rule: IsoRule; readonly message: string };

export function pass<T>(value: T): Check<T> {
  return { ok: true, value };
}

export function reject(rule: IsoRule, message: string): Check<never> {
  return { ok: false, rule, message };
}
