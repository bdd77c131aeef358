// Typed errors of the state layer. Ledger rejections are results (model/rejections.ts),
// not errors; these cover loading persisted state and answering queries.

export type StateErrorCode = 'state_invalid_entry';

/** A persisted entry cannot be loaded: unknown table, bad key, undecodable or non-canonical value. */
export class StateError extends Error {
  override readonly name = 'StateError';
  constructor(
    readonly code: StateErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

export function isStateError(e: unknown): e is StateError {
  return e instanceof StateError;
}

export type QueryErrorCode =
  | 'not_found'
  | 'invalid_filter'
  | 'invalid_sort'
  | 'invalid_pagination'
  | 'cursor_not_found'
  | 'cursor_expired'
  | 'cursors_exhausted'
  | 'query_budget_exceeded'
  | 'permission_denied';

/** The HTTP status the gateway should answer each query error with. */
export const QUERY_ERROR_STATUS: Readonly<Record<QueryErrorCode, number>> = Object.freeze({
  not_found: 404,
  invalid_filter: 400,
  invalid_sort: 400,
  invalid_pagination: 400,
  cursor_not_found: 400,
  cursor_expired: 410,
  cursors_exhausted: 429,
  query_budget_exceeded: 422,
  permission_denied: 403,
});

/** A failed query, as a value (never thrown). */
export interface QueryError {
  readonly code: QueryErrorCode;
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

export function queryError(
  code: QueryErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): QueryError {
  return { code, message, details };
}

export function isQueryError(v: unknown): v is QueryError {
  return (
    typeof v === 'object' && v !== null && 'code' in v && 'message' in v && 'details' in v && !('kind' in v)
  );
}
