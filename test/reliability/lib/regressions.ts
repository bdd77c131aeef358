// Kept failing inputs: one
// JSON file per input under test/reliability/regressions/<suite>/, named by the target and a hash of
// the input, holding the input in the target's saved form plus why it failed and how it was found. The
// fuzz suites check every kept input first, before any new ones.

import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REGRESSIONS_DIR = fileURLToPath(new URL('../regressions/', import.meta.url));

export interface Regression {
  /** The fuzz target (decoder) or `route` it failed in. */
  target: string;
  /** What broke when it was found (kept for the record; the check is re-run, not compared). */
  reason: string;
  found: string;
  [field: string]: unknown;
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Writes `input` (already in saved JSON form) and returns the file path. Same input, same file. */
export function saveRegression(
  suite: string,
  target: string,
  input: Record<string, unknown>,
  reason: string,
  found: string,
): string {
  const dir = `${REGRESSIONS_DIR}${suite}/`;
  mkdirSync(dir, { recursive: true });
  const hash = createHash('sha256').update(JSON.stringify(input)).digest('hex').slice(0, 12);
  const path = `${dir}${slug(target)}-${hash}.json`;
  const record: Regression = { target, reason: reason.slice(0, 500), found, ...input };
  writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
  return path;
}

/** Every kept input of `suite`, with its file name. */
export function loadRegressions(suite: string): { file: string; record: Regression }[] {
  const dir = `${REGRESSIONS_DIR}${suite}/`;
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  return files
    .sort()
    .map((file) => ({ file, record: JSON.parse(readFileSync(dir + file, 'utf8')) as Regression }));
}
