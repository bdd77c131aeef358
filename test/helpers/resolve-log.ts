// Which ES modules a test process resolves: importing this file registers a resolve hook on the loader
// thread that reports every URL resolved from then on. For tests that check a module is not loaded
// until it is used (they run in a process of their own: `test-runner: own process`).
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const HOOKS = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  port.postMessage(r.url);
  return r;
}`;
const resolved: string[] = [];
const { port1, port2 } = new MessageChannel();
port1.on('message', (url: string) => resolved.push(url));
port1.unref();
register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, {
  data: { port: port2 },
  transferList: [port2],
});

/** The URLs resolved so far, once every message up to a marker module's has arrived (one port, in order). */
export async function resolvedSoFar(): Promise<string[]> {
  const marker = `data:text/javascript,export const marker = ${Math.random()};`;
  await import(marker);
  while (!resolved.includes(marker)) await new Promise((r) => setImmediate(r));
  return resolved;
}
