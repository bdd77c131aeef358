// The code of `torana genesis entry | collect | verify | adopt` (declared in genesis-commands.ts).

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeFiles } from '../node/files.js';
import type { Genesis } from '../node/genesis.js';
import {
  adoptGenesis,
  collectGenesis,
  makeEntry,
  registeredAddresses,
  verifyGenesisFile,
} from '../node/genesis-ceremony.js';
import { CeremonyError, entryFromJson, entryToJson } from '../node/genesis-entry.js';
import { writeFileAtomic } from '../util/atomic-file.js';

async function readJson(path: string, what: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new CeremonyError('genesis_entry_invalid', `cannot read ${what} ${path}: ${(e as Error).message}`);
  }
}

function out(json: boolean | undefined, doc: Record<string, unknown>, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(doc)}\n` : text);
}

export async function genesisEntry(flags: {
  dir: string;
  chainId: string;
  address: string;
  out?: string;
  json?: boolean;
}): Promise<void> {
  const entry = await makeEntry(flags.dir, flags.chainId, flags.address);
  const json = entryToJson(entry);
  entryFromJson(json); // the address is checked with the rest, before anything is written
  const path = flags.out ?? join(nodeFiles(flags.dir).dir, 'genesis-entry.json');
  await writeFileAtomic(path, `${JSON.stringify(json, null, 2)}\n`, 0o644);
  out(
    flags.json,
    { file: path, entry: json },
    `wrote ${path} (public keys only): send it to the coordinator\n`,
  );
}

export async function genesisCollect(
  entries: string[],
  flags: { chainId: string; adminDir: string; out: string; params?: string; json?: boolean },
): Promise<void> {
  const parsed = [];
  for (const path of entries) parsed.push(entryFromJson(await readJson(path, 'entry'), path));
  const params = flags.params === undefined ? {} : await readJson(flags.params, 'parameters');
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    throw new CeremonyError('genesis_invalid', '--params must hold a JSON object of dotted config keys');
  const { genesis, text, hash } = await collectGenesis({
    chainId: flags.chainId,
    entries: parsed,
    adminDir: flags.adminDir,
    params: params as Record<string, unknown>,
    nowMs: Date.now(),
  });
  await writeFileAtomic(flags.out, text, 0o644);
  out(
    flags.json,
    { file: flags.out, hash, chain_id: genesis.chainId, validators: genesis.validators.length },
    `wrote ${flags.out}: chain ${genesis.chainId}, ${genesis.validators.length} validators\n` +
      `genesis hash ${hash}\n(give every operator the file and this hash by separate channels)\n`,
  );
}

function summary(g: Genesis, hash: string): { doc: Record<string, unknown>; text: string } {
  const addresses = registeredAddresses(g);
  const validators = g.validators.map((v) => ({ peer: v.peer, address: addresses.get(v.peer) ?? '' }));
  return {
    doc: { hash, chain_id: g.chainId, authority: g.transaction.payload.authority, validators },
    text:
      `genesis ${hash} verified: chain ${g.chainId}, authority ${g.transaction.payload.authority}\n` +
      validators.map((v) => `  validator ${v.peer} at ${v.address}\n`).join(''),
  };
}

export async function genesisVerify(path: string, flags: { hash: string; json?: boolean }): Promise<void> {
  const { genesis, hash } = await verifyGenesisFile(path, flags.hash);
  const s = summary(genesis, hash);
  out(flags.json, s.doc, s.text);
}

export async function genesisAdopt(
  path: string,
  flags: { dir: string; hash: string; listen?: string; json?: boolean },
): Promise<void> {
  const r = await adoptGenesis({
    dir: flags.dir,
    path,
    hash: flags.hash,
    ...(flags.listen === undefined ? {} : { listen: flags.listen }),
  });
  const s = summary(r.genesis, r.hash);
  out(
    flags.json,
    { ...s.doc, dir: nodeFiles(flags.dir).dir, role: r.role, wrote_config: r.wroteConfig },
    `${s.text}adopted into ${nodeFiles(flags.dir).dir} as a ${r.role}` +
      `${r.wroteConfig ? ' (config.toml written: the other validators are its peers)' : ''}\n` +
      `start it with: torana start --dir ${flags.dir}\n`,
  );
}

/** `torana genesis import`: a genesis state file written into `--dir` before its first start. */
export async function genesisImport(file: string, flags: { dir: string; json?: boolean }): Promise<void> {
  const { loadNodeConfig } = await import('../node/load-config.js');
  const { loadGenesis } = await import('../node/genesis.js');
  const { importGenesisFile } = await import('../node/genesis-import.js');
  const config = await loadNodeConfig({ dir: flags.dir });
  const files = nodeFiles(flags.dir);
  const genesis = await loadGenesis(join(files.dir, config.node.genesisFile), config.node.chainId);
  const t0 = performance.now();
  const r = await importGenesisFile(flags.dir, file, {
    authority: genesis.transaction.payload.authority,
    fsync: config.storage.fsync,
    mapSizeBytes: config.storage.lmdbMapBytes,
  });
  const seconds = (performance.now() - t0) / 1000;
  out(
    flags.json,
    { file, dir: files.dir, ...r, seconds },
    `imported ${file} into ${files.data}: ${r.domains} domains, ${r.definitions} definitions, ` +
      `${r.accounts} accounts, ${r.assets} balances (${r.rows} rows) in ${seconds.toFixed(1)} s\n` +
      `state root before block 1: ${r.stateRoot}\n` +
      '(every peer imports the same file before its first start: compare this root)\n',
  );
}
