// Commands are declared up front but their code is imported only when one runs (`torana --help`
// once loaded the whole node). Declaration files import commander and types only; each action
// module imports what that command needs, so a client command never loads lmdb, fastify or the
// native crypto addons it does not use.

// biome-ignore lint/suspicious/noExplicitAny: commander hands actions untyped positional arguments.
type Action = (...args: any[]) => void | Promise<void>;

/**
 * An action that imports `load()` on first use and calls its `name` export with commander's arguments.
 * Before it, the ledger modules' registry, which declares their wire pieces (instruction and event
 * variants, …) into the codecs the action may use (docs/design/modules.md "Wire declarations"); an
 * action that decodes no ledger type (`wire: false`: plain JSON, e.g. `status`) skips it, and with it the
 * data model and the native crypto backend.
 */
export function lazyAction<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M & string,
  opts: { wire?: boolean } = {},
): Action {
  return async (...args: unknown[]) => {
    if (opts.wire !== false) await import('../modules/registry.js');
    const mod = await load();
    await (mod[name] as Action)(...args);
  };
}
