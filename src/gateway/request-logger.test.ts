import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { createGatewayServer, type GatewayServerOptions } from './server.js';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  step?: number;
}

/** A gateway whose log lines are collected, its logger's `child` calls counted, and three routes. */
async function gateway(opts: GatewayServerOptions) {
  const lines: Line[] = [];
  const app = await createGatewayServer({
    ...opts,
    logStream: { write: (line: string) => lines.push(JSON.parse(line) as Line) },
  });
  let children = 0;
  const log = app.log as FastifyBaseLogger & { child: FastifyBaseLogger['child'] };
  const child = log.child;
  log.child = function (this: FastifyBaseLogger, bindings, options) {
    children++;
    return child.call(this, bindings, options);
  } as FastifyBaseLogger['child'];
  app.get('/quiet', async (req) => {
    req.log.debug('not written at warn');
    req.log.info('not written at warn');
    return { id: req.id };
  });
  app.get('/warns', async (req) => {
    req.log.warn('written');
    req.log.child({ step: 2 }).error('nested');
    return { id: req.id };
  });
  app.get('/plain', async (req) => ({ id: req.id }));
  app.get('/level', async (req) => ({
    info: (req.log as FastifyBaseLogger & { isLevelEnabled(l: string): boolean }).isLevelEnabled('info'),
    level: req.log.level,
  }));
  return { app, lines, children: () => children };
}

describe('request loggers made on first use', () => {
  it('makes no child logger for a request that writes nothing (access log off)', async () => {
    const g = await gateway({ logLevel: 'warn', logAccess: false });
    for (let i = 0; i < 3; i++) assert.equal((await g.app.inject({ url: '/quiet' })).statusCode, 200);
    assert.equal(g.children(), 0);
    assert.deepEqual(g.lines, []);
    await g.app.close();
  });

  it("writes a request's lines with its request id, children of it included", async () => {
    const g = await gateway({ logLevel: 'warn', logAccess: true });
    const { id } = (await g.app.inject({ url: '/warns' })).json<{ id: string }>();
    // The request's child, then the child of that child.
    assert.equal(g.children(), 2);
    assert.deepEqual(
      g.lines.map((l) => ({ level: l.level, msg: l.msg, reqId: l.reqId, step: l.step })),
      [
        { level: 40, msg: 'written', reqId: id, step: undefined },
        { level: 50, msg: 'nested', reqId: id, step: 2 },
      ],
    );
    assert.deepEqual((await g.app.inject({ url: '/level' })).json(), { info: false, level: 'warn' });
    await g.app.close();
  });

  it('leaves the access log as it was: one child per request, each line with its id', async () => {
    const g = await gateway({ logLevel: 'info' });
    const { id } = (await g.app.inject({ url: '/plain' })).json<{ id: string }>();
    assert.equal(g.children(), 1);
    assert.deepEqual(
      g.lines.map((l) => [l.msg, l.reqId]),
      [
        ['incoming request', id],
        ['request completed', id],
      ],
    );
    await g.app.close();
  });
});
