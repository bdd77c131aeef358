// Route validators shared by every gateway of a process. Fastify compiles each route's request schemas
// (body, query, params) with Ajv, in a fresh Ajv instance per server: the
// same schemas were compiled again at every build, ~0.8 s of a gateway's start. Here one pool per
// process keeps one Ajv instance per set of shared schemas and Ajv options (as Fastify's own factory
// does within a server), and a validator is compiled once per schema text: about a quarter of the
// routes build their schema objects afresh for each server (list queries, path parameters), equal in
// content from one build to the next.
//
// A validator is compiled at its route's first request, not when the server gets ready: a gateway has ~190
// routes and most processes that start one (a node that serves a few clients, each test's node, each CLI
// child) call few of them, while compiling them all took ~0.5 s of CPU at every start. The first
// request of a route pays its compile (a few milliseconds). `compilePendingValidators()` compiles every
// one still waiting (test/gateway/bad-input.test.ts calls it once every route has had its probes).
//
// Fastify treats a factory given here as a custom compiler, which only changes how a `headers` schema
// is prepared (its names are not lower-cased first): the gateway refuses a route that declares one
// (server.ts), so that no such schema validates differently unnoticed.

import { AjvCompiler } from '@fastify/ajv-compiler';

/** What Fastify passes to a route's compiler (the package's own types name only Ajv's `compile`). */
interface RouteSchema {
  readonly schema: unknown;
  readonly method: string;
  readonly url: string;
  readonly httpPart: string;
}
type Validate = (data: unknown) => unknown;
type Compile = (route: RouteSchema) => Validate;
type BuildValidator = (externalSchemas: unknown, options: unknown) => Compile;

const pool = AjvCompiler() as unknown as BuildValidator;
const compiledByText = new WeakMap<Compile, Map<string, Validate>>();
/** Validators not yet compiled, each compiling itself when called. */
const pending = new Set<() => Validate>();
let compiledCount = 0;

/** How many validators this process has compiled (a test's view of when compiling happens). */
export function validatorsCompiled(): number {
  return compiledCount;
}

/**
 * A validator that compiles on its first call. Fastify reads a failed validation's `errors` from the
 * function it was given, so the compiled one's are copied there after every call.
 */
function compiledOnFirstCall(compile: Compile, route: RouteSchema): Validate {
  let compiled: Validate | undefined;
  const ensure = () => {
    if (compiled === undefined) {
      compiled = compile(route);
      compiledCount++;
      pending.delete(ensure);
    }
    return compiled;
  };
  pending.add(ensure);
  const validate = (data: unknown) => {
    const inner = ensure();
    const result = inner(data);
    (validate as { errors?: unknown }).errors = (inner as { errors?: unknown }).errors;
    return result;
  };
  return validate;
}

/** Compiles every validator still waiting for its first call; answers how many it compiled. */
export function compilePendingValidators(): number {
  const waiting = [...pending];
  for (const ensure of waiting) ensure();
  return waiting.length;
}

function sharedFactory(externalSchemas: unknown, options: unknown): Compile {
  const compile = pool(externalSchemas, options);
  let byText = compiledByText.get(compile);
  if (byText === undefined) {
    byText = new Map();
    compiledByText.set(compile, byText);
  }
  const memo = byText;
  return (route) => {
    const schema = route.schema as { $id?: unknown } | null;
    if (typeof schema !== 'object' || schema === null || schema.$id !== undefined) return compile(route);
    const text = JSON.stringify(schema);
    let validate = memo.get(text);
    if (validate === undefined) {
      validate = compiledOnFirstCall(compile, route);
      memo.set(text, validate);
    }
    return validate;
  };
}

/**
 * The validator factory every gateway server is built with (server.ts). A schema with an `$id` goes
 * to Ajv as it is (Ajv keeps one schema per id).
 */
export const sharedValidatorFactory = sharedFactory as unknown as ReturnType<typeof AjvCompiler>;
