// How the node's log looks (`npm start` printed a JSON line per request). On a terminal a
// developer gets one readable line per entry; JSON, one object per line, when stdout is not a
// terminal or `log.format = "json"`, for collectors. pino-pretty is not a dependency: this is the
// small subset a terminal needs (time, level, message, request summary, other fields, error stack).

const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

type LogFormat = 'auto' | 'pretty' | 'json';

export function usePrettyLogs(format: LogFormat, isTty: boolean | undefined): boolean {
  return format === 'pretty' || (format === 'auto' && isTty === true);
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** One pino JSON line as `HH:MM:SS.mmm LEVEL message k=v …`; a line that is not JSON passes as is. */
export function formatLogLine(line: string): string {
  let e: Record<string, unknown>;
  try {
    e = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof e !== 'object' || e === null) return line;
  const { level, time, msg, pid: _pid, hostname: _host, err, req, res, responseTime, ...rest } = e;
  const at = typeof time === 'number' ? new Date(time).toISOString().slice(11, 23) : '';
  const parts = [at, (LEVEL_NAMES[level as number] ?? String(level)).padEnd(5), text(msg ?? '')];
  const r = req as { method?: string; url?: string } | undefined;
  if (r?.method) parts.push(`${r.method} ${r.url ?? ''}`);
  const s = res as { statusCode?: number } | undefined;
  if (s?.statusCode)
    parts.push(`${s.statusCode}${typeof responseTime === 'number' ? ` ${responseTime.toFixed(1)} ms` : ''}`);
  for (const [k, v] of Object.entries(rest)) parts.push(`${k}=${text(v)}`);
  const stack = (err as { stack?: string } | undefined)?.stack;
  return `${parts.filter(Boolean).join(' ')}${stack ? `\n${stack}` : ''}`;
}

/** A pino destination that writes formatted lines to `out`. */
export function prettyLogStream(out: { write(s: string): unknown }): { write(chunk: string): void } {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line.length > 0) out.write(`${formatLogLine(line)}\n`);
    },
  };
}
