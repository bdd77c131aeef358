// The shapes every figure shares (the JSON file of a run holds
// `{machine, started_at, figures: [{id, value, unit, baseline, baseline_value, ratio, goal, met}]}`).

import type { Fixtures } from './fixtures.js';

/** Stable ids, so runs can be compared over time ("keep these stable"). */
export const FIGURE_IDS = [
  'committed_tx_per_s',
  'commit_latency_p99_ms',
  'read_ratio_vs_bare',
  'read_ratio_vs_node_http',
  'fanout_p99_ms',
  'fanout_bytes_per_subscriber',
  'codec_ratio_vs_msgpackr',
  'restart_ready_s',
  'replay_tx_per_s',
  'iso_pacs008_per_s',
  'cli_status_ms',
  'bft4_committed_tx_per_s',
  'bft4_commit_latency_p99_ms',
  'bft4_view_change_ms',
  'bft4_ratio_vs_verify_limit',
  'bft7_committed_tx_per_s',
  'conference_zk_verify_per_s',
  'conference_private_join_p99_ms',
  'batch_committed_tx_per_s',
  'state_1m_rss_mib',
  'state_1m_restart_ready_s',
  'state_1m_read_p99_ratio',
  'state_1m_query_p99_ratio',
  'state_commit_tx_per_s',
  'webhook_deliveries_per_s',
  'block_exec_at_cap_ms',
  'export_events_per_s',
  'indexer_blocks_per_s',
  'indexer_rows_per_s',
  'index_lag_p99_ms',
  'proof_bytes',
  'proof_verify_per_s',
  'join_by_snapshot_s',
] as const;
export type FigureId = (typeof FIGURE_IDS)[number];

/** The goal of a figure its issue gives none for (documented growth): the table's met column says '-'. */
export const NO_GOAL = '—';

export interface FigureResult {
  id: FigureId;
  /** null when the figure could not be measured; never a made-up number. */
  value: number | null;
  unit: string;
  baseline: string | null;
  baseline_value: number | null;
  /** value ÷ baseline_value, when both exist. */
  ratio: number | null;
  goal: string;
  met: boolean;
  /** false when the run could not judge the goal (reduced scale with --quick, a fallback path). */
  assessed?: boolean;
  note?: string;
  /** Further numbers measured on the way (other baselines, p50, sizes). */
  extra?: Record<string, number | string>;
}

export interface FigureContext {
  quick: boolean;
  log(message: string): void;
  fixtures: Fixtures;
}

export interface Figure {
  id: FigureId;
  run(ctx: FigureContext): Promise<FigureResult>;
}

export function ratioOf(value: number | null, baseline: number | null): number | null {
  if (value === null || baseline === null || baseline === 0) return null;
  return value / baseline;
}

/** A figure whose feature does not exist yet (report it, never invent a number). */
export function notMeasured(id: FigureId, unit: string, goal: string, why: string): FigureResult {
  return {
    id,
    value: null,
    unit,
    baseline: null,
    baseline_value: null,
    ratio: null,
    goal,
    met: false,
    note: `not measured: ${why}`,
  };
}
