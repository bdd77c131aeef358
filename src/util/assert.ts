// Always-on assertions for invariants (style.md "Limits and assertions"). A failed assertion is a
// programmer error: it stops the operation loudly. Never use it on untrusted input.

export class AssertionError extends Error {
  override readonly name: string = 'AssertionError';
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError(message);
}

export function unreachable(value: never, message = 'unreachable'): never {
  throw new AssertionError(`${message}: ${String(value)}`);
}
