import type { FromSchema, JSONSchema } from "json-schema-to-ts";
import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
} from "fastify";

/*
 * Request and reply types derived from a route's JSON Schema by json-schema-to-ts: a handler
 * declared as `(req: RequestOf<typeof schema>)` sees the body, query and params exactly as the
 * schema validated them (with ajv's defaults applied), with no type written a second time.
 */
//
// @fastify/type-provider-json-schema-to-ts is this interface with the serializer typed too; it is
// not used because replies stay unchecked (as Fastify's default): the mappers answer enum names
// as the kit's enumName strings and timestamps as iso()'s optional strings, wider than the
// response schemas' literal unions. The serializer still applies those schemas at run time.
export interface Provider extends FastifyTypeProvider {
  validator: this["schema"] extends JSONSchema ? FromSchema<this["schema"]> : unknown;
  serializer: unknown;
}

export type RequestOf<S extends FastifySchema> = FastifyRequest<RouteGenericInterface, RawServerDefault, RawRequestDefaultExpression, S, Provider>;

export type ReplyOf<S extends FastifySchema> = FastifyReply<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  ContextConfigDefault,
  S,
  Provider
>;

/** The app as the route modules register on it: schemas typed by the provider. */
export const typed = (app: FastifyInstance) => app.withTypeProvider<Provider>();
