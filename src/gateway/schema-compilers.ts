// Route validators shared by every gateway of a process. Fastify compiles each route's request schemas
// (body, query, params) with Ajv when the server gets ready, in a fresh Ajv instance per server: the
// same schemas were compiled again at every build, ~0.8 s of a gateway's start. Here one pool per
// process keeps one Ajv instance per set of shared schemas and Ajv options (as Fastify's own factory
// does within a server), and a validator is compiled once per schema text: about a quarter of the
// routes build their schema objects afresh for each server (list queries, path parameters), equal in
// content from one build to the next.
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
      validate = compile(route);
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
