// Selecting one page of a history index: one pass over the index range, oldest
// first, counting the entries that pass the filters (`total`) and keeping only the newest
// `offset + limit` of those before the cursor, so memory is bounded by the page, not the history. Block
// time never decreases with height (a proposal whose time regressed is refused), so the pass stops at
// the first entry after `toMs`. At most `scanMax` entries are read: beyond, 422 query_budget_exceeded.
// A long pass yields to the event loop every SLICE_MS (as gateway/list-scan.ts does), so that /status and
// the other clients are answered while it runs.

import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { gatewayError } from '../../gateway/errors.js';
import { hasKind } from '../../pipeline/tx-summary.js';
import { before, type CursorLocation } from './cursor.js';
import type { HistoryEntry } from './port.js';

export type HistoryStatus = 'ok' | 'rejected' | 'all';

export interface HistoryFilter {
  status: HistoryStatus;
  fromMs?: number;
  toMs?: number;
  /** Variant tag of an instruction kind the transaction must contain. */
  kindTag?: number;
}

export interface PageRequest {
  filter: HistoryFilter;
  limit: number;
  offset: number;
  cursor?: CursorLocation;
}

export interface SelectedPage {
  total: number;
  /** Newest first. */
  items: HistoryEntry[];
  /** Where the next page starts, when there is one. */
  next?: CursorLocation;
}

function unfiltered(f: HistoryFilter): boolean {
  return f.status === 'all' && f.fromMs === undefined && f.toMs === undefined && f.kindTag === undefined;
}

/** Whether an entry passes the filters; 'stop' once past `toMs`. Summary-less entries pass only no filter. */
function verdict(e: HistoryEntry, f: HistoryFilter, none: boolean): boolean | 'stop' {
  const s = e.summary;
  if (s === undefined) return none;
  if (f.toMs !== undefined && s.blockTimeMs > f.toMs) return 'stop';
  if (f.fromMs !== undefined && s.blockTimeMs < f.fromMs) return false;
  if (f.status === 'ok' && !s.ok) return false;
  if (f.status === 'rejected' && s.ok) return false;
  return f.kindTag === undefined || hasKind(s.kinds, f.kindTag);
}

/** Longest run of reading entries between two yields to the event loop (checked every SLICE_CHECK_ENTRIES). */
export const SLICE_MS = 2;
const SLICE_CHECK_ENTRIES = 256;

export async function selectPage(
  entries: Iterable<HistoryEntry>,
  req: PageRequest,
  scanMax: number,
  visible: (e: HistoryEntry) => boolean = () => true,
): Promise<SelectedPage> {
  const keep = req.offset + req.limit;
  const ring: HistoryEntry[] = new Array(Math.min(keep, 1024));
  let kept = 0; // entries before the cursor that passed, in total (the ring holds the newest `keep`)
  let total = 0;
  let scanned = 0;
  const none = unfiltered(req.filter);
  let sliceStart = performance.now();
  for (const e of entries) {
    if (++scanned > scanMax) throw gatewayError('query_budget_exceeded', { scan_entries_max: scanMax });
    if (scanned % SLICE_CHECK_ENTRIES === 0 && performance.now() - sliceStart > SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
    const v = verdict(e, req.filter, none);
    if (v === 'stop') break;
    if (!v || !visible(e)) continue;
    total++;
    if (req.cursor !== undefined && !before(e, req.cursor)) continue;
    ring[kept % keep] = e;
    kept++;
  }
  // The page is the passing entries number kept-1-offset down to kept-offset-limit (0-based, oldest first).
  const items: HistoryEntry[] = [];
  for (let n = kept - 1 - req.offset; n >= 0 && n >= kept - keep; n--) items.push(ring[n % keep]!);
  const last = items.at(-1);
  const more = kept - req.offset - items.length > 0;
  return {
    total,
    items,
    ...(more && last !== undefined ? { next: { height: last.height, index: last.index } } : {}),
  };
}
