// Test support (excluded from the build by its -fixture suffix): sample loading, XML edits for
// negative cases, and assertions on typed errors.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { IsoError, IsoRule } from './errors.js';

export const SAMPLES_DIR = new URL('./samples/', import.meta.url);
/** The ISO 20022 schemas the tests validate against (a copy inside the project: test/iso20022/xsd/README.md). */
export const XSD_DIR = new URL('../../test/iso20022/xsd/', import.meta.url);

export function sample(name: string): string {
  return readFileSync(new URL(name, SAMPLES_DIR), 'utf8');
}

export function sampleJson(name: string): Record<string, unknown> {
  return JSON.parse(sample(name)) as Record<string, unknown>;
}

/** Replaces the first occurrence of `from` (which must be present). */
export function edit(xml: string, from: string | RegExp, to: string): string {
  const found = typeof from === 'string' ? xml.includes(from) : from.test(xml);
  assert.ok(found, `fixture edit: ${String(from)} not found`);
  return xml.replace(from, to);
}

/** Removes the first element of that local name, with its content. */
export function dropElement(xml: string, name: string): string {
  return edit(xml, new RegExp(`\\s*<${name}(?:\\s[^>]*)?>[\\s\\S]*?</${name}>`), '');
}

/** The Document element alone, for schema validation of enveloped samples. */
export function documentPart(xml: string): string {
  const m = /<Document[\s>][\s\S]*<\/Document>/.exec(xml);
  assert.ok(m, 'no Document element');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${m[0]}\n`;
}

type Failed = { readonly ok: false; readonly errors: readonly IsoError[] };

export function errorsOf(result: { readonly ok: boolean } | Failed): readonly IsoError[] {
  assert.equal(result.ok, false, 'expected a failure');
  return (result as Failed).errors;
}

/** Asserts the result failed with a validation error of exactly this rule at exactly this path. */
export function assertRule(result: { readonly ok: boolean }, rule: IsoRule, path: string): void {
  const errors = errorsOf(result);
  const hit = errors.some((e) => e.code === 'iso_validation_failed' && e.rule === rule && e.path === path);
  assert.ok(hit, `expected ${rule} at ${path}, got ${JSON.stringify(errors)}`);
}

export function assertCode(result: { readonly ok: boolean }, code: IsoError['code']): void {
  const errors = errorsOf(result);
  assert.ok(
    errors.length > 0 && errors.every((e) => e.code === code),
    `expected ${code}, got ${JSON.stringify(errors)}`,
  );
}

export function ok<T>(
  result:
    | { readonly ok: true; readonly message: T }
    | { readonly ok: false; readonly errors: readonly IsoError[] },
): T {
  if (!result.ok) assert.fail(`expected success, got ${JSON.stringify(result.errors)}`);
  return result.message;
}
