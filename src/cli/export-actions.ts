// The code of `torana export --nats` (declared in export-commands.ts): checks the flags, runs the
// exporter (src/export/nats-export.ts) until SIGTERM or SIGINT, then lets the publishes in flight finish.

import { DUPLICATE_WINDOW_MS_CEILING, IN_FLIGHT_MAX_CEILING, PROGRESS_EVERY_MS } from '../export/limits.js';
import { prefixProblem } from '../export/subjects.js';
import { CliError } from './errors.js';
import { printJson } from './output.js';

interface ExportFlags {
  nats: string;
  from: string;
  stream: string;
  subjectPrefix: string;
  inFlightMax: string;
  duplicateWindowMs: string;
  since: string;
  json?: boolean;
}

function bounded(text: string, flag: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max)
    throw new CliError('invalid_argument', `${flag} must be an integer from ${min} to ${max}`, 2);
  return n;
}

/** Stream names: JetStream refuses '.', '*', '>', path separators and whitespace. */
const STREAM_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export async function natsExport(flags: ExportFlags): Promise<void> {
  const inFlightMax = bounded(flags.inFlightMax, '--in-flight-max', 1, IN_FLIGHT_MAX_CEILING);
  const duplicateWindowMs = bounded(
    flags.duplicateWindowMs,
    '--duplicate-window-ms',
    1000,
    DUPLICATE_WINDOW_MS_CEILING,
  );
  const since = flags.since === 'now' ? 'now' : bounded(flags.since, '--since', 0, Number.MAX_SAFE_INTEGER);
  if (!STREAM_NAME.test(flags.stream))
    throw new CliError('invalid_argument', '--stream must be 1..64 of A-Z a-z 0-9 _ -', 2);
  const bad = prefixProblem(flags.subjectPrefix);
  if (bad !== undefined)
    throw new CliError('invalid_argument', `--subject-prefix must be subject tokens; it has ${bad}`, 2);
  // The ledger modules' event scopes: the `domain` of their data events, as the node's filter sees it.
  await import('../modules/load.js');
  const { ExportError, runExport } = await import('../export/nats-export.js');
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    process.stderr.write(`export: ${signal}: finishing the publishes in flight\n`);
    stop.abort();
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    const summary = await runExport({
      natsUrl: flags.nats,
      gatewayUrl: flags.from,
      stream: flags.stream,
      subjectPrefix: flags.subjectPrefix,
      inFlightMax,
      duplicateWindowMs,
      since,
      signal: stop.signal,
      log: (line) => process.stderr.write(`${line}\n`),
      progressEveryMs: PROGRESS_EVERY_MS,
    });
    process.stderr.write(
      `export: stopped: ${summary.published} published, ${summary.duplicates} already held, last event ${summary.lastId ?? '-'}\n`,
    );
    if (flags.json) printJson(summary);
  } catch (e) {
    if (e instanceof ExportError) throw new CliError(e.code, e.message, 1);
    throw e;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
}
