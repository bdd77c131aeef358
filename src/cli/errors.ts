// The CLI's own operating error: a stable code, a message for the user and the exit code (main.ts).
// Kept apart from settings.ts so that main.ts can recognise it without loading the SDK.

export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
