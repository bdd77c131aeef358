// The CLI's own operating error: a stable code, a message for the user, the exit code (EXIT below) and,
// for `--json`, details a script can act on. Kept apart from settings.ts so that main.ts can recognise
// it without loading the SDK.

/** The exit codes of `torana` (README "Command line", docs/errors.md "Command line"). */
export const EXIT = {
  ok: 0,
  /** Anything else: the node unreachable, a gateway error, a file that cannot be read. */
  error: 1,
  /** Bad usage: an unknown command or option, a malformed argument or input; nothing was sent. */
  usage: 2,
  /** The ledger rejected the transaction (its rejection code is the error code). */
  rejected: 3,
} as const;

export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number = EXIT.error,
    readonly details?: unknown,
  ) {
    super(message);
  }
}
