// `http_request_duration_seconds` and the hot-path side of `http_requests_total` without prom-client's
// per-call label validation and hashing (on the read path, per-request work is what a bare server does
// plus a few counters). Every answered request adds to a series found by Map lookups on the route
// pattern, then the method (then the status): the route and method strings are the route table's and the
// HTTP parser's own, whose hashes V8 keeps, so no key is built per request. prom-client sees the totals
// only when scraped, in the order the series first appeared (a list beside the maps). The exposition is the one
// prom-client's Histogram gives (same name, help, buckets, label order), so `/metrics` is unchanged.
// Series stay bounded as before: labels are route patterns, a fixed method set and HTTP statuses.

import type { Counter, Registry } from 'prom-client';

export type DurationLabels = {
  route: string;
  method: string;
};

interface Series {
  readonly labels: DurationLabels;
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

interface MetricValue {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  value: number;
  metricName: string;
  /** Exemplars are off; prom-client's values carry the field all the same (null on buckets). */
  exemplar: null | undefined;
}

/** A histogram by route pattern and method with prom-client's metric interface (registerMetric). */
export class RouteDurations {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #bounds: readonly number[];
  /** Route pattern → method → series. */
  readonly #byRoute = new Map<string, Map<string, Series>>();
  /** Every series in the order it first appeared (the exposition's order). */
  readonly #series: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    bounds: readonly number[],
    registers: readonly Registry[],
  ) {
    this.#bounds = bounds;
    for (const r of registers) r.registerMetric(this as never);
  }

  observe(labels: DurationLabels, seconds: number): void {
    this.observeFor(labels.route, labels.method, seconds);
  }

  observeFor(route: string, method: string, seconds: number): void {
    let byMethod = this.#byRoute.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.#byRoute.set(route, byMethod);
    }
    let s = byMethod.get(method);
    if (s === undefined) {
      s = { labels: { route, method }, counts: new Float64Array(this.#bounds.length + 1), sum: 0, count: 0 };
      byMethod.set(method, s);
      this.#series.push(s);
    }
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && seconds > bounds[i]!) i++;
    s.counts[i]! += 1;
    s.sum += seconds;
    s.count += 1;
  }

  /** What prom-client's Registry prints: cumulative buckets, +Inf, sum and count per series. */
  getForPromString() {
    const values: MetricValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.#series) {
      let acc = 0;
      this.#bounds.forEach((le, i) => {
        acc += s.counts[i]!;
        values.push({
          labels: { le },
          sharedLabels: s.labels,
          value: acc,
          metricName: bucket,
          exemplar: null,
        });
      });
      const shared = s.labels;
      const last = (
        labels: Record<string, string>,
        value: number,
        metricName: string,
        exemplar: null | undefined,
      ) => values.push({ labels, sharedLabels: shared, value, metricName, exemplar });
      last({ le: '+Inf' }, s.count, bucket, null);
      last({}, s.sum, `${this.name}_sum`, undefined);
      last({}, s.count, `${this.name}_count`, undefined);
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The JSON form (Registry.getMetricsAsJSON): labels and shared labels merged, as prom-client does. */
  get() {
    const data = this.getForPromString();
    const values = data.values.map(({ labels, sharedLabels, ...rest }) => ({
      ...rest,
      labels: { ...labels, ...sharedLabels },
    }));
    return { ...data, values };
  }

  reset(): void {
    this.#byRoute.clear();
    this.#series.length = 0;
  }
}

interface TallyEntry {
  readonly labels: DurationLabels & { status: string };
  n: number;
}

/**
 * Requests counted per route, method and status (Map lookups on each, no key built), added to the
 * prom-client counter when it is scraped (`flush` from its `collect`), in the order they first appeared.
 */
export class RequestTally {
  /** Route pattern → method → status → entry. */
  readonly #byRoute = new Map<string, Map<string, Map<number, TallyEntry>>>();
  readonly #pending: TallyEntry[] = [];

  count(route: string, method: string, status: number): void {
    let byMethod = this.#byRoute.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.#byRoute.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    const entry = byStatus.get(status);
    if (entry !== undefined) entry.n++;
    else {
      const added = { labels: { route, method, status: String(status) }, n: 1 };
      byStatus.set(status, added);
      this.#pending.push(added);
    }
  }

  flush(counter: Counter<'route' | 'method' | 'status'>): void {
    for (const entry of this.#pending) {
      if (entry.n === 0) continue;
      counter.inc(entry.labels, entry.n);
      entry.n = 0;
    }
  }
}
