// Where a node keeps its operator passkeys (WebAuthn credentials): one small JSON file in the node's data
// folder, next to the operator request watermark, replaced atomically and fsynced (util/atomic-file.ts)
// before the registration or sign-in that changed it is answered. Per node: nothing here is replicated,
// so a passkey registered on one node signs in to that node only. A node served without a directory
// (tests, embedded use) keeps them in memory.
// Each record holds the credential id, its COSE public key, the newest signature counter accepted and
// when and under which label it was registered; never anything secret (a passkey's private key stays in
// its authenticator).

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../util/atomic-file.js';

export const PASSKEYS_FILE = 'operator-passkeys.json';

export interface PasskeyRecord {
  /** Credential id, base64url. */
  id: string;
  /** COSE-encoded public key, base64url. */
  public_key: string;
  /** The newest signature counter accepted (0 for authenticators that keep none). */
  counter: number;
  transports: string[];
  label: string;
  created_at_ms: number;
  last_used_at_ms: number | null;
}

export interface PasskeyStore {
  /** The records, in registration order. */
  list(): readonly PasskeyRecord[];
  get(id: string): PasskeyRecord | undefined;
  /** Adds or replaces `rec` and makes the whole set durable before resolving. */
  put(rec: PasskeyRecord): Promise<void>;
}

class Store implements PasskeyStore {
  readonly #records = new Map<string, PasskeyRecord>();
  #chain: Promise<void> = Promise.resolve();

  constructor(
    records: readonly PasskeyRecord[],
    private readonly path: string | undefined,
  ) {
    for (const r of records) this.#records.set(r.id, r);
  }

  list(): readonly PasskeyRecord[] {
    return [...this.#records.values()];
  }

  get(id: string): PasskeyRecord | undefined {
    return this.#records.get(id);
  }

  put(rec: PasskeyRecord): Promise<void> {
    this.#records.set(rec.id, { ...rec });
    const path = this.path;
    if (path === undefined) return Promise.resolve();
    // Writes are serialised, and each writes the set as it is when it runs: the newest state lands last.
    this.#chain = this.#chain.then(() =>
      writeFileAtomic(path, `${JSON.stringify({ credentials: this.list() }, null, 1)}\n`, 0o600),
    );
    return this.#chain;
  }
}

export function memoryPasskeyStore(): PasskeyStore {
  return new Store([], undefined);
}

function isRecord(r: unknown): r is PasskeyRecord {
  const o = r as Partial<PasskeyRecord> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    typeof o.id === 'string' &&
    typeof o.public_key === 'string' &&
    Number.isSafeInteger(o.counter) &&
    Array.isArray(o.transports) &&
    typeof o.label === 'string' &&
    Number.isSafeInteger(o.created_at_ms)
  );
}

/** The store in `dataDir` (empty when the file does not exist yet); a damaged file stops the start. */
export async function openPasskeyStore(dataDir: string): Promise<PasskeyStore> {
  const path = join(dataDir, PASSKEYS_FILE);
  const text = await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
  if (text === undefined) return new Store([], path);
  const credentials = (JSON.parse(text) as { credentials?: unknown }).credentials;
  if (!Array.isArray(credentials) || !credentials.every(isRecord))
    throw new Error(`${path}: not a list of operator passkeys; restore it from a backup or delete it`);
  return new Store(credentials, path);
}
