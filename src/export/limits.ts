// Defaults and bounds of `torana export --nats` (docs/export.md, docs/security.md "Event export").
// Kept free of imports so that the CLI's declarations can show the defaults without loading the exporter.

/** Unacknowledged JetStream publishes at most (`--in-flight-max`). */
export const IN_FLIGHT_MAX_DEFAULT = 256;
export const IN_FLIGHT_MAX_CEILING = 65_536;

/** The stream's duplicate window (`--duplicate-window-ms`): JetStream's own default, two minutes. */
export const DUPLICATE_WINDOW_MS_DEFAULT = 120_000;
/** One day: a longer window makes JetStream keep every message id of the day in memory. */
export const DUPLICATE_WINDOW_MS_CEILING = 86_400_000;

/** A progress line on stderr at most this often while events flow. */
export const PROGRESS_EVERY_MS = 5_000;

export const STREAM_DEFAULT = 'TORANA';
export const SUBJECT_PREFIX_DEFAULT = 'torana';
