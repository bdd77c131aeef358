// Commands are declared up front but their code is imported only when one runs (`torana --help`
// once loaded the whole node). Declaration files import commander and types only; each action
// module imports what that command needs, so a client command never loads lmdb, fastify or the
// native crypto addons it does not use.

// biome-ignore lint/suspicious/noExplicitAny: commander hands actions untyped positional arguments.
type Action = (...args: any[]) => void | Promise<void>;

/** An action that imports `load()` on first use and calls its `name` export with commander's arguments. */
export function lazyAction<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M & string,
): Action {
  return async (...args: unknown[]) => {
    const mod = await load();
    await (mod[name] as Action)(...args);
  };
}
