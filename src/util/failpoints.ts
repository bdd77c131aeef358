// Fail points: named persistence steps at which a test can crash the process for real
// (the idea comes from CometBFT's fail package).
// Production code calls `hit(name)` at each step; the default implementation does nothing.
// Each instance keeps its own counters, so two nodes in one process never share state.

export interface FailPoints {
  /** Called at each named persistence step, e.g. `blocklog.after-write`. */
  hit(name: string): void;
}

export const noFailPoints: FailPoints = Object.freeze({ hit(): void {} });

/** The environment variable that arms a fail point: `<name>:<n>` crashes on the n-th hit of `<name>`. */
export const FAILPOINT_ENV = 'TORANA_FAILPOINT';

export interface FailPointSpec {
  name: string;
  /** 1-based: the hit that crashes. */
  nth: number;
}

/** Parses `<name>:<n>`; returns undefined for anything else, so a typo never arms a different point. */
export function parseFailPointSpec(text: string): FailPointSpec | undefined {
  const colon = text.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const name = text.slice(0, colon);
  const count = text.slice(colon + 1);
  if (!/^[1-9][0-9]{0,8}$/.test(count)) return undefined;
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(name)) return undefined;
  return { name, nth: Number(count) };
}

/**
 * Fail points driven by `TORANA_FAILPOINT`. On the armed hit the process sends itself SIGKILL: a real
 * crash in which no `finally`, exit handler or buffered write runs, like a power cut minus the page
 * cache. An unset variable gives `noFailPoints`; a malformed one throws, so a test cannot silently
 * run without its crash.
 */
export function failPointsFromEnv(env: NodeJS.ProcessEnv): FailPoints {
  const raw = env[FAILPOINT_ENV];
  if (raw === undefined || raw === '') return noFailPoints;
  const spec = parseFailPointSpec(raw);
  if (spec === undefined)
    throw new Error(`${FAILPOINT_ENV} must look like "<name>:<n>", got ${JSON.stringify(raw)}`);
  return crashingFailPoints(spec, () => process.kill(process.pid, 'SIGKILL'));
}

/** Fail points that call `crash` on the n-th hit of one name. Exposed so tests can check the counting. */
export function crashingFailPoints(spec: FailPointSpec, crash: () => void): FailPoints {
  let hits = 0;
  return {
    hit(name: string): void {
      if (name !== spec.name) return;
      hits += 1;
      if (hits === spec.nth) crash();
    },
  };
}

/** For tests: records the name of every hit, in order. */
export function recordingFailPoints(): FailPoints & { names: string[] } {
  const names: string[] = [];
  return {
    names,
    hit(name: string): void {
      names.push(name);
    },
  };
}
