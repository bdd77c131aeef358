// The long route fuzz's engine (test/reliability/fuzz-routes.test.ts): picks a strategy per request from
// a per-index seed (so request #i replays from the run's seed), sends it, judges the answer with the
// short test's rules (test/helpers/bad-requests.ts `problemOf`), and runs lanes until a deadline. Kept
// failing requests (regressions/routes/) are replayed by `replay`.

import type { Pool } from 'undici';
import type { OperatorAudience } from '../../../src/gateway/operator-message.js';
import { fromHex, toHex } from '../../../src/util/hex.js';
import { mutate, type Probe, problemOf, Rng, seededRandom } from '../../helpers/bad-requests.js';
import { documentedErrorCodes, type LiveRoute, type Samples } from '../../helpers/route-catalog.js';
import type { TestAccount } from '../../helpers/tx.js';
import type { Regression } from './regressions.js';
import {
  baselineProbe,
  bodyAwareMutation,
  randomRequest,
  rawRequest,
  structuredCache,
} from './route-probes.js';
import { rawSend, sendProbe } from './route-send.js';

export type Strategy = 'baseline' | 'mutation' | 'stacked' | 'body-aware' | 'structured' | 'random';
const STRATEGIES: readonly [Strategy, number][] = [
  ['baseline', 1],
  ['mutation', 4],
  ['stacked', 2],
  ['body-aware', 2],
  ['structured', 1],
  ['random', 1],
];

function pickStrategy(rng: Rng): Strategy {
  const total = STRATEGIES.reduce((s, [, w]) => s + w, 0);
  let x = rng.next() * total;
  for (const [s, w] of STRATEGIES) {
    x -= w;
    if (x < 0) return s;
  }
  return 'mutation';
}

export interface Finding {
  text: string;
  /** The request in regressions/ form. */
  saved: Record<string, unknown>;
}

export interface FuzzTarget {
  url: string;
  chainId: string;
  admin: TestAccount;
  registry: () => Readonly<Record<string, { status: number }>>;
  operator: { seed: Uint8Array; audience: OperatorAudience };
}

export const saveProbe = (p: Probe) => ({
  method: p.method,
  path: p.path,
  headers: p.headers,
  sign: p.sign === true,
  ...(p.body === undefined ? {} : { body_hex: toHex(p.body) }),
});

export class RouteFuzzer {
  readonly counts = new Map<string, number>();
  readonly strategies = new Map<string, number>();
  readonly findings: Finding[] = [];
  tried = 0;
  raws = 0;
  rawSilent = 0;
  private readonly documented = documentedErrorCodes();
  private readonly structured: ReturnType<typeof structuredCache>;

  constructor(
    private readonly target: FuzzTarget,
    private readonly pool: Pool,
    private readonly routes: readonly LiveRoute[],
    private readonly samples: Samples,
    private readonly seed: number,
  ) {
    this.structured = structuredCache(samples);
  }

  get routeCount(): number {
    return this.routes.length;
  }

  routeOf(p: Probe): LiveRoute | undefined {
    const path = p.path.split('?')[0]!;
    return this.routes.find((r) => new RegExp(`^${r.url.replace(/:\w+/g, '[^/]+')}$`).test(path));
  }

  /** Sends `p`; why its answer breaks the pass criteria, or undefined. */
  async check(route: LiveRoute | undefined, p: Probe): Promise<string | undefined> {
    const bump = (k: string) => this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    try {
      const a = await sendProbe(this.pool, route, p, this.target.operator);
      bump(a.status < 300 ? '2xx' : a.status < 500 ? `${a.status}` : '5xx');
      return problemOf(a, 'any', this.target.registry(), this.documented);
    } catch (e) {
      return `transport: ${(e as Error).message}`;
    }
  }

  probeFor(i: number): { route: LiveRoute | undefined; probe: Probe; strategy: Strategy } {
    const rng = new Rng(seededRandom((this.seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0));
    const route = this.routes[i % this.routes.length]!;
    const base = baselineProbe(route, this.target, this.samples, i);
    const strategy = pickStrategy(rng);
    const probe = ((): Probe => {
      switch (strategy) {
        case 'baseline':
          return base;
        case 'mutation':
          return mutate(base, rng, i);
        case 'stacked':
          return mutate(mutate(base, rng, i), rng, i);
        case 'body-aware':
          return base.body === undefined ? mutate(base, rng, i) : bodyAwareMutation(base, rng, i);
        case 'structured':
          return { ...rng.pick(this.structured(route, base)), expect: 'any' };
        case 'random':
          return randomRequest(this.routes, rng, i);
      }
    })();
    return { route: strategy === 'random' ? this.routeOf(probe) : route, probe, strategy };
  }

  /** Runs `lanes` request lanes and one raw-HTTP lane until `deadline` (Date.now()). */
  async run(lanes: number, deadline: number): Promise<void> {
    let next = 0;
    const lane = async () => {
      while (Date.now() < deadline) {
        const i = next++;
        this.tried++;
        const { route, probe, strategy } = this.probeFor(i);
        this.strategies.set(strategy, (this.strategies.get(strategy) ?? 0) + 1);
        const problem = await this.check(route, probe);
        const what = `#${i} ${strategy} ${probe.method} ${probe.path.slice(0, 100)} [${probe.label}]`;
        if (problem !== undefined)
          this.findings.push({ text: `${what}: ${problem}`, saved: saveProbe(probe) });
      }
    };
    await Promise.all([...Array.from({ length: lanes }, lane), this.rawLane(deadline)]);
  }

  private async rawLane(deadline: number): Promise<void> {
    const port = Number(new URL(this.target.url).port);
    const paths = this.routes.map((r) => r.url.replace(/:\w+/g, 'x'));
    const rng = new Rng(seededRandom(this.seed ^ 0x5eed));
    while (Date.now() < deadline) {
      const bytes = rawRequest(rng, paths);
      this.raws++;
      const a = await rawSend(port, bytes);
      if (a.status === undefined) this.rawSilent++;
      else if (a.status >= 500)
        this.findings.push({ text: `raw: ${a.head.slice(0, 120)}`, saved: { raw_hex: toHex(bytes) } });
    }
  }

  /** Replays one kept request; its problem, or undefined. */
  async replay(r: Regression): Promise<string | undefined> {
    if (typeof r.raw_hex === 'string') {
      const a = await rawSend(Number(new URL(this.target.url).port), fromHex(r.raw_hex) ?? new Uint8Array());
      return a.status !== undefined && a.status >= 500 ? a.head : undefined;
    }
    const body = typeof r.body_hex === 'string' ? fromHex(r.body_hex) : undefined;
    const p: Probe = {
      label: 'regression',
      method: String(r.method),
      path: String(r.path),
      headers: r.headers as Record<string, string>,
      expect: 'any',
      sign: r.sign === true,
      ...(body === undefined ? {} : { body }),
    };
    return this.check(this.routeOf(p), p);
  }
}
