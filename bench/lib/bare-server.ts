// The bare Fastify baselines, run as a child process so the load generator and the
// server each get their own process, exactly like the node under test:
//   GET  /hello   a hello-world route (baseline of the read figure)
//   POST /verify  verifies one Ed25519 signature from a 128-byte body: public key ‖ message ‖ signature
//                 (baseline of the committed-transactions figure: the least a submission route must do)
// Prints `LISTENING <url>` when ready. Usage: node --import tsx bench/lib/bare-server.ts

import Fastify from 'fastify';
import { ed25519Verify } from '../../src/crypto/ed25519.js';

const VERIFY_BODY_BYTES = 128;

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body, done) =>
  done(null, body),
);
app.get('/hello', async () => ({ hello: 'world' }));
app.post('/verify', async (req, reply) => {
  const body = req.body as Buffer;
  if (body.length !== VERIFY_BODY_BYTES) return reply.code(400).send({ code: 'bad_body' });
  const ok = ed25519Verify(body.subarray(0, 32), body.subarray(32, 64), body.subarray(64, 128));
  return reply.code(ok ? 202 : 400).send({ ok });
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`LISTENING ${url}\n`);
// Exit through process.exit so that Node flags such as --cpu-prof write their output on SIGTERM.
process.once('SIGTERM', () => process.exit(0));
