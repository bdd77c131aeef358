// The Range header of a content download (RFC 9110 §14): one byte range, `bytes=a-b`, `bytes=a-` or
// `bytes=-n`. Several ranges (`bytes=0-1,5-6`) are refused with 416: the routes never build multipart
// answers. A range that starts past the end is 416; one ending past it is cut at the end.

export type RangeAnswer =
  | { kind: 'whole' }
  | { kind: 'part'; start: number; end: number }
  | { kind: 'unsatisfiable'; reason: string };

const ONE = /^bytes=(\d*)-(\d*)$/;

/** What `header` asks of a file of `size` bytes. A header that is not a byte range is ignored (whole). */
export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'whole' };
  const h = header.trim();
  if (!h.startsWith('bytes=')) return { kind: 'whole' };
  if (h.includes(',')) return { kind: 'unsatisfiable', reason: 'one range only (no multipart answers)' };
  const m = ONE.exec(h.replace(/\s+/g, ''));
  if (m === null || (m[1] === '' && m[2] === ''))
    return { kind: 'unsatisfiable', reason: 'not a byte range' };
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable', reason: 'an empty suffix range' };
    return { kind: 'part', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return { kind: 'unsatisfiable', reason: `the range starts at or past ${size}` };
  if (end < start) return { kind: 'unsatisfiable', reason: 'the range ends before it starts' };
  return { kind: 'part', start, end };
}
