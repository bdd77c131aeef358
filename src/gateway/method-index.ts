// Which methods a path is served with, to tell 405 method_not_allowed (RFC 9110 §15.5.6, with an
// `Allow` header) from 404 not_found when no route matched. Built from the route table collected by the
// server's onRoute hook; Fastify's router itself only answers "no match".

import type { RegisteredRoute } from './context.js';

export interface MethodIndex {
  /** Methods of the routes whose pattern matches `path`, sorted; empty when none does. */
  allowed(path: string): string[];
}

/** `/v1/accounts/:id` -> /^\/v1\/accounts\/[^/]+$/ ; a trailing `*` matches any rest. */
function patternOf(url: string): RegExp {
  const parts = url.split('/').map((segment) => {
    if (segment === '*') return '.*';
    if (segment.startsWith(':')) return '[^/]+';
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${parts.join('/')}$`);
}

export function createMethodIndex(routes: readonly RegisteredRoute[]): MethodIndex {
  // The CORS preflight (`OPTIONS *`, hidden) would match every path; it is not a method of the route.
  const entries = routes
    .filter((r) => !r.hidden && r.method !== 'OPTIONS' && r.method !== 'HEAD')
    .map((r) => ({ method: r.method, pattern: patternOf(r.url) }));
  return {
    allowed(path) {
      const methods = new Set<string>();
      for (const e of entries) if (e.pattern.test(path)) methods.add(e.method);
      return [...methods].sort();
    },
  };
}
