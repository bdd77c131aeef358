// How a failed command ends (README "Command line", docs/errors.md "Command line"): one line
// `error [code]: message` (`rejected [code]: …` for a ledger rejection) on stderr, or with `--json` one
// JSON document `{"code","message","details"}` on stderr; and the exit code of EXIT. Light on purpose
// (main.ts loads it before any command): errors are told apart by name and shape, not by class.

import { CommanderError } from 'commander';
import { readableRejection } from '../model/rejection-text.js';
import { CliError, EXIT } from './errors.js';

export interface Failure {
  /** `rejected` for a transaction the ledger rejected; `error` otherwise. */
  label: 'error' | 'rejected';
  code: string;
  message: string;
  details: Record<string, unknown>;
  exitCode: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The message without the code it starts with (the SDK's errors repeat it: `code: message`). */
function withoutCode(message: string, code: string): string {
  return message.startsWith(`${code}: `)
    ? message.slice(code.length + 2)
    : message.replace(`: ${code}: `, ': ');
}

/** A usage error of commander's (unknown option, missing argument, …) by its code, in snake_case. */
function usageCode(e: CommanderError): string {
  const name = e.code.replace(/^commander\./, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return name === 'error' || name === 'invalid_argument' ? 'invalid_argument' : name;
}

export function failureOf(e: unknown): Failure {
  if (e instanceof CommanderError) {
    const message = e.message.replace(/^error: /, '');
    return { label: 'error', code: usageCode(e), message, details: {}, exitCode: EXIT.usage };
  }
  const err = (isRecord(e) ? e : {}) as {
    code?: unknown;
    message?: unknown;
    name?: unknown;
    details?: unknown;
    status?: unknown;
    hash?: unknown;
    blockHeight?: unknown;
    reason?: unknown;
  };
  const code = typeof err.code === 'string' ? err.code : 'internal_error';
  const message = withoutCode(typeof err.message === 'string' ? err.message : String(e), code);
  if (err.name === 'TransactionRejectedError') {
    const details: Record<string, unknown> = { tx_hash: err.hash, rejection: err.reason };
    if (err.blockHeight !== undefined) details['block_height'] = err.blockHeight;
    // The line shows amounts at their scale; details.rejection keeps the committed text.
    const said =
      isRecord(err.reason) && typeof err.reason['message'] === 'string' ? err.reason['message'] : '';
    const shown = said === '' ? message : message.replace(said, readableRejection(code, said));
    return { label: 'rejected', code, message: shown, details, exitCode: EXIT.rejected };
  }
  const details: Record<string, unknown> = isRecord(err.details)
    ? { ...err.details }
    : err.details === undefined
      ? {}
      : { value: err.details };
  if (typeof err.status === 'number') details['http_status'] = err.status;
  if (err.name === 'ToranaUnknownOutcomeError' && typeof err.hash === 'string') details['tx_hash'] = err.hash;
  const exitCode = e instanceof CliError ? e.exitCode : EXIT.error;
  return { label: 'error', code, message, details, exitCode };
}

/** Writes the failure to stderr as a line, or as one JSON document with `json`. */
export function writeFailure(f: Failure, json: boolean): void {
  if (json) {
    const body = { code: f.code, message: f.message, details: f.details };
    process.stderr.write(`${JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
  } else process.stderr.write(`${f.label} [${f.code}]: ${f.message}\n`);
}
