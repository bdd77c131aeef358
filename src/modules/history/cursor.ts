// Opaque history cursors (§1.1): the location of the last item a page returned. The
// next page lists only transactions committed before it, so blocks committing during a walk (always at
// greater heights) never shift the pages: no item repeats, none is skipped.

import { gatewayError } from '../../gateway/errors.js';

export interface CursorLocation {
  height: number;
  index: number;
}

const TEXT = /^h([1-9][0-9]{0,15})i(0|[1-9][0-9]{0,9})$/;
const CURSOR_CHARS_MAX = 64;

export function encodeCursor(loc: CursorLocation): string {
  return Buffer.from(`h${loc.height}i${loc.index}`, 'utf8').toString('base64url');
}

/** The cursor's location, or 400 invalid_pagination. */
export function decodeCursor(text: string): CursorLocation {
  const bad = () => gatewayError('invalid_pagination', { cursor: 'not a cursor of this list' });
  if (text.length > CURSOR_CHARS_MAX || !/^[A-Za-z0-9_-]+$/.test(text)) throw bad();
  const m = TEXT.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (m === null) throw bad();
  const height = Number(m[1]);
  const index = Number(m[2]);
  if (!Number.isSafeInteger(height) || index > 0xffff_ffff) throw bad();
  return { height, index };
}

/** Whether (a) comes before (b) in commit order. */
export function before(a: CursorLocation, b: CursorLocation): boolean {
  return a.height < b.height || (a.height === b.height && a.index < b.index);
}
