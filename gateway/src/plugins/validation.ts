import { AjvCompiler, type BuildCompilerFromPool } from "@fastify/ajv-compiler";
import { SerializerSelector, type SerializerFactory } from "@fastify/fast-json-stringify-compiler";

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

declare module "fastify" {
  interface FastifyInstance {
    /** Compiles every route's schemas not compiled yet, now, and says how many (see lazySchemaCompilers). */
    compileSchemas(): number;
    /** How many validators and serializers have not been compiled yet. */
    schemasPending(): number;
  }
}

type Validate = ((data: unknown) => unknown) & { errors?: unknown };
type Serialize = (doc: unknown) => string;

/**
 * Compiles every route's validators and serializers on first use instead of when the app starts:
 * compiling all of them (ajv, fast-json-stringify) took most of a second of the gateway's start,
 * which a restarted replica spent before it could answer anything (issue 31: restart to ready
 * ≤ 2 s). Once the server listens, `compileInBackground` compiles the rest one per turn of the
 * event loop, so a route's first request seldom pays; `compileAll` does it at once (the test that
 * shows every schema compiles, as a start did before).
 */
export function lazySchemaCompilers() {
  const pending = new Set<() => void>();
  let stopped = false;
  function lazily<F>(compile: () => F): () => F {
    let compiled: F | undefined;
    const get = () => {
      if (compiled === undefined) {
        compiled = compile();
        pending.delete(get);
      }
      return compiled;
    };
    pending.add(get);
    return get;
  }
  const serializers = SerializerSelector();
  const contexts: { external: string; options: unknown; compiler: ReturnType<typeof serializers>; bySchema: Map<string, () => Serialize> }[] = [];
  return {
    buildValidator: ((externalSchemas, serverOptions) => {
      const compiler = buildValidator(externalSchemas, serverOptions);
      return ((route: never) => {
        const get = lazily(() => compiler(route) as unknown as Validate);
        // Fastify reads `errors` off the function it called, as ajv leaves them on its own.
        const validate: Validate = (data) => {
          const fn = get();
          const valid = fn(data);
          validate.errors = fn.errors;
          return valid;
        };
        return validate;
      }) as ReturnType<BuildCompilerFromPool>;
    }) as BuildCompilerFromPool,
    buildSerializer: ((externalSchemas, options) => {
      // One serializer per distinct schema, shared by every route that answers in it: the
      // gateway's 779 route and status pairs have 78 schemas (every route answers its errors in
      // the same few shapes), and each compiled serializer keeps its generated source and
      // bytecode, about 7 KiB, for the life of the process. fast-json-stringify's output depends
      // only on the schema, the external schemas and the options; Fastify asks for a compiler
      // per plugin context, each with the same external schemas and options.
      const external = JSON.stringify(externalSchemas);
      let context = contexts.find((c) => c.external === external && c.options === options);
      if (context === undefined) {
        context = { external, options, compiler: serializers(externalSchemas, options), bySchema: new Map() };
        contexts.push(context);
      }
      const { compiler, bySchema } = context;
      return (route) => {
        const key = JSON.stringify(route.schema);
        let get = bySchema.get(key);
        if (get === undefined) {
          get = lazily(() => compiler(route) as Serialize);
          bySchema.set(key, get);
        }
        const shared = get;
        return (doc: unknown) => shared()(doc);
      };
    }) satisfies SerializerFactory,
    /** Compiles whatever has not been yet and says how many; throws what a schema's compile throws. */
    compileAll(): number {
      const left = [...pending];
      for (const get of left) get();
      return left.length;
    },
    /** How many validators and serializers have not been compiled yet. */
    pending: () => pending.size,
    compileInBackground(onError: (err: unknown) => void): void {
      const next = () => {
        const get = pending.values().next().value;
        if (stopped || !get) return;
        try {
          get();
        } catch (err) {
          pending.delete(get);
          onError(err);
        }
        // Not unref'd: an unref'd immediate waits for whatever else wakes the loop (a Kafka fetch
        // a second later). stop() (the app's onClose) ends it, so it never holds a stop up.
        setImmediate(next);
      };
      setImmediate(next);
    },
    stop(): void {
      stopped = true;
    },
  };
}
