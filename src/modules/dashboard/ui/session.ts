// The operator session the dashboard's pages send (docs/dashboard.md "Operator sign-in"): a bearer token
// kept in sessionStorage (this tab only, gone when it closes) for the node it came from. A module's
// settings section (extensions.ts `settings`) opens and ends it; the pages that read with it (a module's,
// such as the bridge's messages) send it as `Authorization: Bearer`.

import { type Headers, NODE_URL } from './api.js';

export interface Session {
  token: string;
  sessionId: string;
  expiresAtMs: number;
}

const KEY = `torana.dashboard.session:${NODE_URL}`;

/** The stored session of this node, unless it expired. */
export function currentSession(): Session | undefined {
  try {
    const s = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Session | null;
    return s !== null && s.expiresAtMs > Date.now() ? s : undefined;
  } catch {
    return undefined;
  }
}

/** `Authorization: Bearer` of the current session, or no header. */
export function sessionHeaders(): Headers {
  const s = currentSession();
  return s === undefined ? {} : { authorization: `Bearer ${s.token}` };
}

/** Keeps `s` as this node's session (this tab only). */
export function keepSession(s: Session): Session {
  sessionStorage.setItem(KEY, JSON.stringify(s));
  return s;
}

/** Forgets this node's session (its token is no longer sent). */
export function forgetSession(): void {
  sessionStorage.removeItem(KEY);
}
