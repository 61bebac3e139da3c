import { AjvCompiler, type BuildCompilerFromPool } from "@fastify/ajv-compiler";

/**
 * Request validation: unknown fields are refused (no mass assignment) and defaults applied
 * everywhere, but types are coerced only where the wire has no types — query strings, path
 * parameters and headers, all text. A JSON body says what it means: ajv's coercion would turn a
 * `null` sent for a string field into "" (and for a number into 0) and accept it, so a client's
 * mistake would be stored silently; the body is validated as sent.
 */
// allErrors: a 422 lists every field error at once (plugins/field-errors.ts), not the first only.
const shared = { removeAdditional: false, useDefaults: true, allErrors: true } as const;
export const ajvOptions = { customOptions: { ...shared, coerceTypes: true } };

const coercing = AjvCompiler();
const exact = AjvCompiler();

type Options = Parameters<BuildCompilerFromPool>[1];
type Route = { httpPart?: string };

export const buildValidator: BuildCompilerFromPool = (externalSchemas, serverOptions) => {
  const options = (serverOptions ?? {}) as { customOptions?: object };
  const text = coercing(externalSchemas, serverOptions);
  const json = exact(externalSchemas, { ...options, customOptions: { ...options.customOptions, coerceTypes: false } } as Options);
  return ((route: Route) => (route.httpPart === "body" ? json : text)(route as never)) as ReturnType<BuildCompilerFromPool>;
};
