// A query's work budget: every item scanned and every filter evaluation charges
// units (filter.ts WorkMeter: one per node visited plus the characters of canonical keys built), and a
// scan stops with `query_budget_exceeded` once the budget is spent, instead of running for seconds. The
// units are deterministic (no clock), so the same query over the same state always stops at the same item.

import { type QueryError, queryError } from './errors.js';
import type { WorkMeter } from './filter.js';

/** Default budget of one query (config `query.work_units_max`): about 100 ms of filtering on one core. */
export const QUERY_WORK_UNITS_MAX = 4_000_000;

export class WorkBudget implements WorkMeter {
  spent = 0;
  constructor(readonly max: number) {}

  charge(units: number): void {
    this.spent += units;
  }

  get exceeded(): boolean {
    return this.spent > this.max;
  }

  error(scanned: number): QueryError {
    return queryError(
      'query_budget_exceeded',
      `the query needs more than ${this.max} work units; narrow the filter or the sort`,
      { limit: this.max, items_scanned: scanned },
    );
  }
}
