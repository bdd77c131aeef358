// The query language of list routes and event filters, as the gateway sees it: a port. Filter
// expressions, sort keys, the work budget of a scan and the top-k of a sorted page are the ledger's
// query engine (state/filter.ts, sort.ts, top-k.ts, work-budget.ts); the node hands it in as
// `GatewayPorts.query` (node/query-language.ts adapts it), so no gateway module imports the state.

/** A compiled filter over an item's snake_case JSON form. */
export type Predicate = (item: unknown) => boolean;

/** Why a filter or sort text was refused; `details` go into the 400's details as they are. */
export interface QueryRefusal {
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

/** Receives the work an evaluation did (filter nodes visited, key characters built, items scanned). */
export interface WorkMeter {
  charge(units: number): void;
}

/** The work budget of one request: charged by the filter and the scan; spent ends the scan. */
export interface WorkBudget extends WorkMeter {
  readonly exceeded: boolean;
  /** The details of the 422 `query_budget_exceeded` after `itemsScanned` items. */
  error(itemsScanned: number): QueryRefusal;
}

/** One key of a sort text (`field:asc`); `segments` is its path, the first one a field of the item. */
export interface SortKey {
  readonly field: string;
  readonly segments: readonly string[];
  readonly descending: boolean;
}

/** The first k ids of a scan in (sort keys, then id) order, kept in O(k) memory. */
export interface TopIds {
  /** Offers the item `id` with JSON form `json` (what the sort keys read). */
  offer(json: unknown, id: string): void;
  /** The kept ids, in order. */
  sorted(): string[];
}

export interface FilterOptions {
  /** Cap on the summed canonical size of the expected values (`query.filter_value_chars_max`). */
  readonly valueCharsMax?: number;
  readonly meter?: WorkMeter;
}

export interface QueryPort {
  /** The deepest filter the engine compiles (the root is 1; each and/or/not adds one). */
  readonly filterDepthMax: number;
  /** The default work budget of one query (`query.work_units_max`). */
  readonly workUnitsMax: number;
  compileFilter(expr: unknown, opts?: FilterOptions): Predicate | QueryRefusal;
  parseSort(text: string): SortKey[] | QueryRefusal;
  workBudget(units: number): WorkBudget;
  top(k: number, keys: readonly SortKey[]): TopIds;
}
