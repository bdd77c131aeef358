// Test-only: what the browser suites share — the esbuild bundle of the SDK as a page loads it, a
// static origin that serves it, and Debian's Chromium's path.
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The SDK (src/sdk/index.ts) bundled for a browser page, as one ES module. */
export async function sdkBundle(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../../src/sdk/index.ts', import.meta.url))],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    conditions: ['torana-source'],
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** A static origin: `/` an empty page, `/sdk.js` the bundle. */
export async function pageServer(bundle: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/sdk.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>torana</title>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}
