// Always-on assertions for invariants: the project's one assertion
// helper. A failed assertion is a programmer error: it stops the operation loudly (and, on the commit
// path, the node: the engines report it through `onFatal`). Never use it on untrusted input: decode and
// return a typed error first, assert only on what was already validated or computed by us.

export class AssertionError extends Error {
  override readonly name: string = 'AssertionError';
}

/** A subclass of AssertionError to throw instead (e.g. ConsensusInvariantError). */
export type AssertionErrorClass = new (message: string) => AssertionError;

export function assert(
  condition: unknown,
  message: string,
  errorClass: AssertionErrorClass = AssertionError,
): asserts condition {
  if (!condition) throw new errorClass(message);
}

export function unreachable(value: never, message = 'unreachable'): never {
  throw new AssertionError(`${message}: ${String(value)}`);
}
