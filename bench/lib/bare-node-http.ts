// The bare `node:http` baseline of the read figures: a hello-world answer with no framework
// at all, in its own process like the node under test and the bare Fastify server (bare-server.ts).
//   GET /hello   {"hello":"world"} as JSON; anything else 404
// Prints `LISTENING <url>` when ready. Usage: node --import tsx bench/lib/bare-node-http.ts

import { createServer } from 'node:http';

const BODY = JSON.stringify({ hello: 'world' });
const HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'content-length': String(Buffer.byteLength(BODY)),
};

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/hello') {
    res.writeHead(200, HEADERS);
    res.end(BODY);
    return;
  }
  res.writeHead(404, { 'content-length': '0' });
  res.end();
});
// The node's keep-alive timeout (gateway.keep_alive_timeout_ms), so idle connections live as long.
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`LISTENING http://127.0.0.1:${port}\n`);
});
// Exit through process.exit so that Node flags such as --cpu-prof write their output on SIGTERM.
process.once('SIGTERM', () => process.exit(0));
