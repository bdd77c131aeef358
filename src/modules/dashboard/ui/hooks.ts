// Small hooks shared by the pages: the hash route, one JSON answer, a polled JSON answer, the live feed.

import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { type Answer, getJson, postJson } from './api.js';
import { FeedContext } from './context.js';
import type { LiveFeed } from './live.js';

export interface Route {
  /** `#/tx/ab12` → ['tx', 'ab12'] (decoded). */
  parts: string[];
  query: URLSearchParams;
}

function parseHash(): Route {
  const raw = location.hash.replace(/^#\/?/, '');
  const [path = '', q = ''] = raw.split('?');
  return {
    parts: path
      .split('/')
      .filter((p) => p !== '')
      .map(decodeURIComponent),
    query: new URLSearchParams(q),
  };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(parseHash);
  useEffect(() => {
    const on = () => setRoute(parseHash());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

/** One GET, again whenever `path` (or `again`) changes; undefined while first loading. */
export function useJson<T>(path: string | undefined, again: unknown = 0): Answer<T> | undefined {
  const [answer, setAnswer] = useState<Answer<T> | undefined>(undefined);
  const loaded = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (path === undefined) return;
    const ac = new AbortController();
    // A new path shows "Loading…"; the same path asked again keeps its answer until the new one comes.
    if (loaded.current !== path) setAnswer(undefined);
    loaded.current = path;
    getJson<T>(path, ac.signal).then((a) => {
      if (!ac.signal.aborted) setAnswer(a);
    });
    return () => ac.abort();
  }, [path, again]);
  return answer;
}

/** One POST of a JSON query (the look-ups of names in place of ids), again whenever `path` or `body` changes. */
export function usePostJson<T>(path: string, body: unknown): Answer<T> | undefined {
  const [answer, setAnswer] = useState<Answer<T> | undefined>(undefined);
  const key = JSON.stringify(body);
  useEffect(() => {
    let live = true;
    setAnswer(undefined);
    postJson<T>(path, body).then((a) => {
      if (live) setAnswer(a);
    });
    return () => {
      live = false;
    };
  }, [path, key]);
  return answer;
}

/** A GET repeated every `everyMs`; `onAnswer` sees each answer (for charts). */
export function usePoll<T>(
  path: string,
  everyMs: number,
  onAnswer?: (a: Answer<T>) => void,
): Answer<T> | undefined {
  const [answer, setAnswer] = useState<Answer<T> | undefined>(undefined);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      const a = await getJson<T>(path);
      if (stopped) return;
      setAnswer(a);
      onAnswer?.(a);
      timer = setTimeout(tick, everyMs);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [path, everyMs]);
  return answer;
}

/** The page's live feed, re-rendering on each change. */
export function useFeed(): LiveFeed {
  const feed = useContext(FeedContext);
  const [, setTick] = useState(0);
  useEffect(() => feed.subscribe(() => setTick((n) => n + 1)), [feed]);
  return feed;
}
