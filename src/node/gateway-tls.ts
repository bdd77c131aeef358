// HTTPS at the gateway (docs/operations.md "TLS"): the certificate chain and key named by
// gateway.tls_cert_file / gateway.tls_key_file, read once at start, relative to the node directory.
// Rotating them takes a restart (or a reverse proxy in front, which reloads on its own).

import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Config } from '../config/schema.js';

export interface GatewayTls {
  readonly cert: Buffer;
  readonly key: Buffer;
  /** Set when the key file can be read by other users than its owner (mode & 0o077). */
  readonly keyModeWarning?: string;
}

function readPem(key: string, file: string, dir: string | undefined): Buffer {
  const path = isAbsolute(file) ? file : resolve(dir ?? '.', file);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new Error(`config_invalid_value: ${key}: cannot read ${path}: ${(e as Error).message}`);
  }
  if (!bytes.toString('latin1').includes('-----BEGIN '))
    throw new Error(`config_invalid_value: ${key}: ${path} is not a PEM file`);
  return bytes;
}

/** The gateway's key pair, or undefined for plain HTTP. Throws with the key's name on a bad file. */
export function readGatewayTls(config: Config, dir: string | undefined): GatewayTls | undefined {
  const g = config.gateway;
  if (g.tlsCertFile === '' && g.tlsKeyFile === '') return undefined;
  const cert = readPem('gateway.tls_cert_file', g.tlsCertFile, dir);
  const key = readPem('gateway.tls_key_file', g.tlsKeyFile, dir);
  const keyPath = isAbsolute(g.tlsKeyFile) ? g.tlsKeyFile : resolve(dir ?? '.', g.tlsKeyFile);
  const mode = statSync(keyPath).mode & 0o777;
  return {
    cert,
    key,
    ...(process.platform !== 'win32' && (mode & 0o077) !== 0
      ? {
          keyModeWarning: `gateway.tls_key_file ${keyPath} is readable by other users (mode ${mode.toString(8)}); chmod 600 it`,
        }
      : {}),
  };
}
