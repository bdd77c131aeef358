// Route visibility by `telemetry.profile`.
// A route the profile forbids stays in the route table and the OpenAPI document but
// answers 503 `telemetry_profile_restricted`.

export const TELEMETRY_PROFILES = ['disabled', 'operator', 'extended', 'developer', 'full'] as const;
export type TelemetryProfile = (typeof TELEMETRY_PROFILES)[number];

/**
 * - public: always served.
 * - status: /status and the operator-level consensus views (consensus status and its stream, consensus
 *   telemetry, and the routes a module's family declares `status`).
 * - metrics: /metrics.
 * - developer: the developer routes listed in DEVELOPER_ROUTES.
 * - operator: always visible, but every request must carry a valid operator signature.
 */
export type Visibility = 'public' | 'status' | 'metrics' | 'developer' | 'operator';

const ALLOWED: Readonly<Record<Visibility, readonly TelemetryProfile[]>> = {
  public: TELEMETRY_PROFILES,
  operator: TELEMETRY_PROFILES,
  status: ['operator', 'extended', 'developer', 'full'],
  metrics: ['extended', 'full'],
  developer: ['developer', 'full'],
};

export function profileAllows(profile: TelemetryProfile, visibility: Visibility): boolean {
  return ALLOWED[visibility].includes(profile);
}

/** Profiles under which a visibility class is served (for documentation and 503 details). */
export function profilesAllowing(visibility: Visibility): readonly TelemetryProfile[] {
  return ALLOWED[visibility];
}

/**
 * The developer routes (docs/configuration.md "Telemetry profiles"). Route families declare these
 * paths with visibility 'developer'; commit certificates, validator sets, consensus keys, key
 * lifecycle, collectors, commit_qc by hash and evidence count are deliberately NOT here (not gated).
 */
export const DEVELOPER_ROUTES: readonly string[] = [
  '/v1/consensus/leader',
  '/v1/consensus/qc',
  '/v1/consensus/pacemaker',
  '/v1/consensus/phases',
  '/v1/consensus/params',
  '/v1/consensus/bls_keys',
  '/v1/consensus/checkpoints',
  '/v1/consensus/rbc',
  '/v1/consensus/rbc/sessions',
  '/v1/consensus/evidence',
];

/**
 * The core's routes shown from the `operator` profile up, declared with 'status'. A module's route
 * family declares its own the same way (its routes' `visibility`), listed on its docs page.
 */
export const STATUS_ROUTES: readonly string[] = [
  '/status',
  '/v1/consensus/status',
  '/v1/consensus/status/sse',
  '/v1/consensus/telemetry',
];
