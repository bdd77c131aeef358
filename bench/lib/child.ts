// Runs a bench helper script in a child process under tsx and returns its last stdout line as JSON.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export function runJsonChild<T>(script: URL, args: string[]): Promise<{ result: T; wallMs: number }> {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    ['--conditions=torana-source', '--import', 'tsx', fileURLToPath(script), ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - t0;
      const last = out.trim().split('\n').at(-1);
      if (code !== 0 || last === undefined || last === '') {
        reject(new Error(`${fileURLToPath(script)} exited with ${code}: ${err.slice(-2000)}`));
        return;
      }
      resolve({ result: JSON.parse(last) as T, wallMs });
    });
  });
}
