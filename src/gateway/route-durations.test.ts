import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { RequestTally, RouteDurations } from './route-durations.js';

const BOUNDS = [0.001, 0.01, 0.1, 1];
const OBSERVED: [string, string, number][] = [
  ['/v1/accounts/:id', 'GET', 0.0004],
  ['/v1/accounts/:id', 'GET', 0.001],
  ['/v1/accounts/:id', 'GET', 0.05],
  ['/status', 'GET', 2],
  ['unmatched', 'POST', 0.2],
];

describe('RouteDurations', () => {
  it('prints exactly what prom-client Histogram prints for the same observations', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const d = new RouteDurations('http_request_duration_seconds', 'Time.', BOUNDS, [ours]);
    const h = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time.',
      labelNames: ['route', 'method'],
      buckets: BOUNDS,
      registers: [theirs],
    });
    for (const [route, method, s] of OBSERVED) {
      d.observeFor(route, method, s);
      h.observe({ route, method }, s);
    }
    assert.equal(await ours.metrics(), await theirs.metrics());
    assert.deepEqual(await ours.getMetricsAsJSON(), await theirs.getMetricsAsJSON());
    ours.resetMetrics();
    theirs.resetMetrics();
    assert.equal(await ours.metrics(), await theirs.metrics());
  });

  it('prints its series in the order they first appeared, as prom-client does', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const d = new RouteDurations('http_request_duration_seconds', 'Time.', BOUNDS, [ours]);
    const h = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time.',
      labelNames: ['route', 'method'],
      buckets: BOUNDS,
      registers: [theirs],
    });
    // A route's second method appears after another route: the list, not the route, sets the order.
    const interleaved: [string, string, number][] = [
      ['/a', 'GET', 0.002],
      ['/b', 'GET', 0.02],
      ['/a', 'POST', 0.2],
      ['/b', 'GET', 0.0001],
      ['/a', 'GET', 3],
    ];
    for (const [route, method, s] of interleaved) {
      d.observeFor(route, method, s);
      h.observe({ route, method }, s);
    }
    assert.equal(await ours.metrics(), await theirs.metrics());
  });
});

describe('RequestTally', () => {
  it('adds the requests counted since the last scrape to the counter, once', async () => {
    const registry = new Registry();
    const tally = new RequestTally();
    const counter = new Counter({
      name: 'http_requests_total',
      help: 'Requests.',
      labelNames: ['route', 'method', 'status'],
      registers: [registry],
      collect() {
        tally.flush(this);
      },
    });
    tally.count('/status', 'GET', 200);
    tally.count('/status', 'GET', 200);
    tally.count('/status', 'GET', 503);
    counter.inc({ route: '/status', method: 'GET', status: '200' });
    const text = await registry.metrics();
    assert.match(text, /^http_requests_total\{route="\/status",method="GET",status="200"\} 3$/m);
    assert.match(text, /^http_requests_total\{route="\/status",method="GET",status="503"\} 1$/m);
    tally.count('/status', 'GET', 200);
    assert.match(await registry.metrics(), /status="200"\} 4$/m);
    assert.match(await registry.metrics(), /status="200"\} 4$/m);
  });

  it('gives the counter what counting each request on it gives, in the same order', async () => {
    const make = (registry: Registry, collect?: (c: Counter<'route' | 'method' | 'status'>) => void) =>
      new Counter({
        name: 'http_requests_total',
        help: 'Requests.',
        labelNames: ['route', 'method', 'status'],
        registers: [registry],
        ...(collect === undefined
          ? {}
          : {
              collect() {
                collect(this);
              },
            }),
      });
    const ours = new Registry();
    const theirs = new Registry();
    const tally = new RequestTally();
    make(ours, (c) => tally.flush(c));
    const direct = make(theirs);
    const requests: [string, string, number][] = [
      ['/a', 'GET', 200],
      ['/b', 'GET', 200],
      ['/a', 'GET', 404],
      ['/a', 'POST', 200],
      ['/b', 'GET', 200],
      ['/a', 'GET', 200],
    ];
    for (const [route, method, status] of requests) {
      tally.count(route, method, status);
      direct.inc({ route, method, status: String(status) });
    }
    assert.equal(await ours.metrics(), await theirs.metrics());
  });
});
