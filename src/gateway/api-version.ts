// API-version headers (every response carries the negotiated and the supported
// versions; a request naming an unparseable version is refused with 400, an unsupported one too).
// A version is a decimal integer without sign or leading zeros, e.g. `1`.

import { type GatewayError, gatewayError } from './errors.js';

export const API_VERSION_HEADER = 'x-ledger-api-version';
export const API_SUPPORTED_HEADER = 'x-ledger-api-supported';

export interface ApiVersions {
  readonly default: number;
  readonly supported: readonly number[];
}

export const DEFAULT_API_VERSIONS: ApiVersions = Object.freeze({ default: 1, supported: Object.freeze([1]) });

const VERSION = /^[1-9][0-9]{0,5}$/;

/** The version this request is answered with, or the 400 to answer instead. */
export function negotiateApiVersion(
  header: string | string[] | undefined,
  versions: ApiVersions,
): number | GatewayError {
  if (header === undefined) return versions.default;
  const text = Array.isArray(header) ? header.join(',') : header;
  const trimmed = text.trim();
  if (!VERSION.test(trimmed)) {
    return gatewayError('invalid_api_version', { value: trimmed.slice(0, 32) });
  }
  const version = Number(trimmed);
  if (!versions.supported.includes(version)) {
    return gatewayError('unsupported_api_version', {
      requested: version,
      supported: [...versions.supported],
    });
  }
  return version;
}

export function apiHeaders(version: number, versions: ApiVersions): Record<string, string> {
  return {
    [API_VERSION_HEADER]: String(version),
    [API_SUPPORTED_HEADER]: versions.supported.join(', '),
  };
}
