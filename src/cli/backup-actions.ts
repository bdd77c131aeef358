// The code of `torana backup create | verify | restore` (declared in backup-commands.ts).

import { BackupError, createBackup, restoreBackup, verifyBackup } from '../node/backup.js';
import { loadNodeConfig } from '../node/load-config.js';
import { CliError } from './errors.js';

function asCliError(e: unknown): unknown {
  return e instanceof BackupError ? new CliError(e.code, e.message) : e;
}

function say(json: boolean | undefined, doc: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(doc)}\n` : text);
}

export async function backupCreate(flags: { dir: string; to: string; config?: string; json?: boolean }) {
  const config = await loadNodeConfig({ dir: flags.dir, configFile: flags.config, env: process.env });
  const t0 = performance.now();
  try {
    const m = await createBackup(flags.dir, flags.to, config.node.chainId, (step) => {
      if (!flags.json) process.stderr.write(`${step}\n`);
    });
    const bytes = m.files.reduce((s, f) => s + f.bytes, 0);
    const ms = Math.round(performance.now() - t0);
    say(
      flags.json,
      {
        to: flags.to,
        chain_id: m.chain_id,
        state_height: m.state_height,
        block_log_height: m.block_log_height,
        files: m.files.length,
        bytes,
        duration_ms: ms,
      },
      `backup of ${m.chain_id} in ${flags.to}: state at height ${m.state_height}, block log to ${m.block_log_height}, ${m.files.length} files, ${(bytes / 1048576).toFixed(1)} MiB in ${(ms / 1000).toFixed(1)} s\n`,
    );
  } catch (e) {
    throw asCliError(e);
  }
}

export async function backupVerify(flags: { from: string; json?: boolean }) {
  try {
    const m = await verifyBackup(flags.from);
    say(
      flags.json,
      {
        from: flags.from,
        ok: true,
        chain_id: m.chain_id,
        state_height: m.state_height,
        block_log_height: m.block_log_height,
        files: m.files.length,
      },
      `backup ${flags.from} is intact: ${m.files.length} files match the manifest (${m.chain_id}, state at height ${m.state_height}, block log to ${m.block_log_height})\n`,
    );
  } catch (e) {
    throw asCliError(e);
  }
}

export async function backupRestore(flags: { from: string; dir: string; replace?: boolean; json?: boolean }) {
  try {
    const r = await restoreBackup(flags.from, flags.dir, {
      replace: flags.replace === true,
      progress: (step) => {
        if (!flags.json) process.stderr.write(`${step}\n`);
      },
    });
    say(
      flags.json,
      {
        dir: flags.dir,
        chain_id: r.manifest.chain_id,
        state_height: r.manifest.state_height,
        block_log_height: r.manifest.block_log_height,
        moved_aside: r.movedAside ?? null,
        kept_safety_record: r.keptSafetyRecord,
      },
      `restored ${r.manifest.chain_id} at height ${r.manifest.block_log_height} into ${flags.dir}` +
        (r.movedAside === undefined ? '' : `; the old data is in ${r.movedAside}`) +
        (r.keptSafetyRecord ? '; kept its consensus safety record' : '') +
        '\nnext: torana verify, then torana start\n',
    );
  } catch (e) {
    throw asCliError(e);
  }
}
