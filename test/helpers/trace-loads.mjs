// `node --import ./test/helpers/trace-loads.mjs …` records every module the process resolves (ESM
// resolve hook) and every native addon it opens (process.dlopen) into the file named by
// TRACE_LOADS_OUT, one URL or path a line. The hook thread appends synchronously, so nothing is
// lost when the process exits right after its command (bin/torana.js calls process.exit).
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';

const out = process.env.TRACE_LOADS_OUT;
if (out) {
  register(new URL('./trace-loads-hooks.mjs', import.meta.url), { data: { out } });
  const dlopen = process.dlopen;
  process.dlopen = function traced(module, filename, ...rest) {
    appendFileSync(out, `dlopen:${filename}\n`);
    return dlopen.call(this, module, filename, ...rest);
  };
}
