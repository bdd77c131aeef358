// Answers serialised once per committed state and reused: a read route whose
// answer depends only on the committed state, the request URL (path and query string) and the
// negotiated format keeps its serialised 200 answer until the state moves on. The state's identity is a
// number (`version`) that changes whenever the committed state or height does; the first lookup after a
// change empties the cache, so no answer outlives the block it was built from.
//
// Bounded: at most `entriesMax` answers and `bytesMax` bytes of bodies and keys (a key is a URL of up to
// the header limit, so 1,024 keys alone could hold megabytes); an answer whose body and key together
// exceed bytesMax / ENTRY_SHARE is never kept. When full, the oldest answer is dropped first (the keys are
// client-chosen URLs, so nothing a client sends can grow it). Errors are never cached.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import { API_VERSION_HEADER } from './api-version.js';

/** One answer may take at most this share of `bytesMax`, so a few big pages cannot evict everything. */
const ENTRY_SHARE = 16;

export interface AnswerCacheLimits {
  /** Answers kept at once; 0 turns the cache off. */
  entriesMax: number;
  /** Bytes of answer bodies and their keys kept at once. */
  bytesMax: number;
}

/** A serialised 200 answer. */
export interface RenderedAnswer {
  readonly contentType: string;
  readonly body: string | Buffer;
}

interface Entry extends RenderedAnswer {
  /** The body's bytes plus the key's length. */
  readonly bytes: number;
}

export class AnswerCache {
  readonly #version: () => number;
  readonly #limits: AnswerCacheLimits;
  readonly #entries = new Map<string, Entry>();
  #current = Number.NaN;
  #bytes = 0;
  hits = 0;
  misses = 0;

  /** `version`: changes whenever the committed state or height does (node/serve.ts). */
  constructor(version: () => number, limits: AnswerCacheLimits) {
    this.#version = version;
    this.#limits = limits;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** The committed state's version now; pass it to `store` with the answer built from that state. */
  version(): number {
    const v = this.#version();
    if (v !== this.#current) {
      this.#entries.clear();
      this.#bytes = 0;
      this.#current = v;
    }
    return v;
  }

  /**
   * The answer kept under `key`, counted as a hit when there is one; a miss is not counted (the route's
   * handler looks up again and counts it): the early answer of `RouteDef.answers` (route-table.ts).
   */
  peek(key: string): RenderedAnswer | undefined {
    this.version();
    const hit = this.#entries.get(key);
    if (hit !== undefined) this.hits++;
    return hit;
  }

  lookup(key: string): RenderedAnswer | undefined {
    this.version();
    const hit = this.#entries.get(key);
    if (hit === undefined) this.misses++;
    else this.hits++;
    return hit;
  }

  /**
   * Keeps `answer` under `key` if it was built from the state of `version` and that state is still the
   * committed one (an answer computed across a commit is served once, never kept).
   */
  store(key: string, version: number, answer: RenderedAnswer): void {
    if (this.version() !== version || this.#limits.entriesMax === 0) return;
    const body = answer.body;
    // The key counts one byte per UTF-16 unit: it is a URL and headers as received, which node:http
    // decodes one byte per character, so that is what it holds.
    const bytes = (typeof body === 'string' ? Buffer.byteLength(body) : body.length) + key.length;
    if (bytes > this.#limits.bytesMax / ENTRY_SHARE) return;
    const old = this.#entries.get(key);
    if (old !== undefined) {
      this.#entries.delete(key);
      this.#bytes -= old.bytes;
    }
    while (
      this.#entries.size > 0 &&
      (this.#entries.size >= this.#limits.entriesMax || this.#bytes + bytes > this.#limits.bytesMax)
    ) {
      const [oldestKey, oldest] = this.#entries.entries().next().value as [string, Entry];
      this.#entries.delete(oldestKey);
      this.#bytes -= oldest.bytes;
    }
    this.#entries.set(key, { contentType: answer.contentType, body, bytes });
    this.#bytes += bytes;
  }
}

/**
 * The cache key of a GET request: negotiated format, API version asked for, and the URL as sent (path
 * and query string). `extra` distinguishes answers that also depend on something else the route reads.
 */
export function answerKey(req: FastifyRequest, extra = ''): string {
  const version = req.headers[API_VERSION_HEADER];
  return `${req.responseFormat}|${typeof version === 'string' ? version : ''}|${extra}|${req.url}`;
}

export function sendAnswer(reply: FastifyReply, answer: RenderedAnswer): FastifyReply {
  return reply.code(200).type(answer.contentType).send(answer.body);
}

/**
 * Answers `req` from `cache`, or renders the answer with `render` (from the committed state as it is
 * now), sends it and keeps it for the next request of the same URL and format. Synchronous on a hit and
 * for synchronous renders (no promise per request on the hot path).
 */
export function answerCached(
  cache: AnswerCache | undefined,
  req: FastifyRequest,
  reply: FastifyReply,
  render: () => RenderedAnswer | Promise<RenderedAnswer>,
): FastifyReply | Promise<FastifyReply> {
  if (cache === undefined) {
    const answer = render();
    return answer instanceof Promise ? answer.then((a) => sendAnswer(reply, a)) : sendAnswer(reply, answer);
  }
  const key = answerKey(req);
  const hit = cache.lookup(key);
  if (hit !== undefined) return sendAnswer(reply, hit);
  const version = cache.version();
  const keep = (answer: RenderedAnswer) => {
    cache.store(key, version, answer);
    return sendAnswer(reply, answer);
  };
  const answer = render();
  return answer instanceof Promise ? answer.then(keep) : keep(answer);
}

/** `http_answer_cache_lookups_total{result}`: read once per scrape, never per request. */
export function installAnswerCacheMetrics(registry: Registry, cache: AnswerCache): void {
  new Counter({
    name: 'http_answer_cache_lookups_total',
    help: 'Lookups of serialised read answers (status, lists, entities by id), by result: hit or miss.',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ result: 'hit' }, cache.hits);
      this.inc({ result: 'miss' }, cache.misses);
    },
  });
}
