// The per-request logger (`req.log`, `reply.log`) made only when a request writes a log line. Fastify
// gives every request a child of the server's logger bound to its request id; making one costs about a
// microsecond (pino copies the serializers and builds formatters), paid on every request even when the
// request logs nothing — which is every request of a server whose access log is off or below its level
// (`log.access = false`, or `log.level` warn or higher), the common case of a busy read path.
//
// `lazyChildLoggerFactory` gives each request a stand-in instead: an object inheriting the server's
// logger whose level methods, `child`, `bindings` and `setBindings` make the real child (the same
// `logger.child(bindings, options)` call Fastify's own factory makes) on first use and forward to it. A
// call at a level the server's logger does not write returns at once, as pino's own no-op does, without
// making the child. So every line written carries the request id as before; what is saved is the child
// of a request that writes nothing. A route with a log level or serializers of its own gets the real
// child at once.

import type { FastifyBaseLogger } from 'fastify';

/** What the stand-in reads of the server's logger beyond Fastify's logger type (pino has both). */
type ServerLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean; readonly levelVal: number };

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
type Level = (typeof LEVELS)[number];

/** The stand-in's own fields (symbols: nothing a pino logger or a caller names). */
const BINDINGS = Symbol('request logger bindings');
const OPTIONS = Symbol('request logger options');
const REAL = Symbol('request logger');

interface Lazy {
  [BINDINGS]: Record<string, unknown>;
  [OPTIONS]: object;
  [REAL]?: FastifyBaseLogger;
}

/** The levels at which a logger whose numeric level is `levelVal` writes. */
type Prototypes = Map<number, object>;

function realOf(parent: FastifyBaseLogger, lazy: Lazy): FastifyBaseLogger {
  let real = lazy[REAL];
  if (real === undefined) {
    real = parent.child(lazy[BINDINGS], lazy[OPTIONS]);
    lazy[REAL] = real;
  }
  return real;
}

/**
 * The prototype of the stand-ins of `parent` while its level is what it is now (one per level value:
 * a level changed at run time gets a prototype of its own from the next request on).
 */
function prototypeFor(parent: ServerLogger): object {
  const proto = Object.create(parent) as Record<string | symbol, unknown>;
  for (const level of LEVELS) {
    const writes = parent.isLevelEnabled(level);
    proto[level] = function (this: Lazy, ...args: unknown[]) {
      // Nothing to write and no child made yet (a child with a level of its own decides for itself).
      if (!writes && this[REAL] === undefined) return;
      const real = realOf(parent, this) as unknown as Record<Level, (...a: unknown[]) => void>;
      real[level](...args);
    };
  }
  proto.child = function (this: Lazy, bindings: Record<string, unknown>, options?: object) {
    return realOf(parent, this).child(bindings, options);
  };
  proto.bindings = function (this: Lazy) {
    return (realOf(parent, this) as unknown as { bindings(): Record<string, unknown> }).bindings();
  };
  proto.setBindings = function (this: Lazy, bindings: Record<string, unknown>) {
    (realOf(parent, this) as unknown as { setBindings(b: Record<string, unknown>): void }).setBindings(
      bindings,
    );
  };
  proto.isLevelEnabled = function (this: Lazy, level: string) {
    return ((this[REAL] as ServerLogger | undefined) ?? parent).isLevelEnabled(level);
  };
  Object.defineProperty(proto, 'level', {
    get(this: Lazy) {
      return (this[REAL] ?? parent).level;
    },
    set(this: Lazy, level: string) {
      realOf(parent, this).level = level;
    },
  });
  return proto;
}

/**
 * Fastify's `childLoggerFactory`: a stand-in that makes the request's child logger on first use
 * (see above). Fastify checks that what it gets has the logger methods; the stand-in has them all.
 */
export function lazyChildLoggerFactory(): (
  logger: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: object,
) => FastifyBaseLogger {
  const byParent = new WeakMap<FastifyBaseLogger, Prototypes>();
  return (logger, bindings, options) => {
    // A route's own level or serializers: the real child, as Fastify's factory makes it.
    for (const _ in options) return logger.child(bindings, options);
    let prototypes = byParent.get(logger);
    if (prototypes === undefined) {
      prototypes = new Map();
      byParent.set(logger, prototypes);
    }
    const levelVal = (logger as ServerLogger).levelVal;
    let proto = prototypes.get(levelVal);
    if (proto === undefined) {
      proto = prototypeFor(logger as ServerLogger);
      prototypes.set(levelVal, proto);
    }
    const lazy = Object.create(proto) as Lazy;
    lazy[BINDINGS] = bindings;
    lazy[OPTIONS] = options;
    return lazy as unknown as FastifyBaseLogger;
  };
}
