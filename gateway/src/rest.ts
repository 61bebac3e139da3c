import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ActorSchema } from "@vulnscan/proto/vulnscan/common/v1/actor_pb.js";
import type { PageInfo } from "@vulnscan/proto/vulnscan/common/v1/pagination_pb.js";
import type { Principal } from "./auth/principal.js";
import { HttpError } from "./errors.js";

/** Deeper than any real list; bounds the offset a page number can ask the database to skip. */
export const MAX_PAGE = 100_000;

/** The spec's list query: page from 1, per_page 1–100 (default 20); out of range is a 422. */
export const pageQueryProperties = {
  page: { type: "integer", minimum: 1, maximum: MAX_PAGE, default: 1, description: `1-based page number, at most ${MAX_PAGE}` },
  per_page: { type: "integer", minimum: 1, maximum: 100, default: 20, description: "Items per page (max 100)" },
} as const;

/** Keyset pagination of the lists that offer it (`next_cursor` of the envelope below). */
export const cursorQueryProp = {
  type: "string",
  minLength: 1,
  maxLength: 1024,
  description: "Opaque keyset cursor: the `next_cursor` of the previous page",
} as const;

export function envelopeSchema(item: object) {
  return {
    type: "object",
    required: ["items", "total", "page", "per_page", "pages"],
    properties: {
      items: { type: "array", items: item },
      total: { type: "integer" },
      page: { type: "integer" },
      per_page: { type: "integer" },
      pages: { type: "integer" },
    },
  } as const;
}

export function envelope<T>(items: T[], info: PageInfo | undefined) {
  return { items, total: info?.total ?? items.length, page: info?.page ?? 1, per_page: info?.perPage ?? items.length, pages: info?.pages ?? 1 };
}

/** The spec's envelope, plus the cursor of the next page (null on the last page). */
export function cursorEnvelopeSchema(item: object) {
  const base = envelopeSchema(item);
  return {
    ...base,
    properties: { ...base.properties, next_cursor: { type: ["string", "null"], description: "Pass as `cursor` for the next page; null on the last page" } },
  } as const;
}

/** The envelope of a cursor-paged list; an upstream's empty next cursor is null. */
export function cursorEnvelope<T>(items: T[], info: PageInfo | undefined, nextCursor: string) {
  return { ...envelope(items, info), next_cursor: nextCursor || null };
}

/** How a list that takes `cursor` says so in its OpenAPI description. */
export const CURSOR_DESCRIPTION =
  "For deep pages pass `cursor` (the previous page's `next_cursor`, with the same filters and sort) instead of `page`: " +
  "the page then continues after the previous one without skipping rows, and `page` in the answer counts on from it.";

export function actorOf(p: Principal): MessageInitShape<typeof ActorSchema> {
  return p.kind === "user" ? { userId: p.userId, displayName: p.email || p.userId } : { apiKeyId: p.apiKeyId, displayName: p.name || p.apiKeyId };
}

/**
 * A date or date-time the route's schema accepted (RFC 3339, ajv's formats) as a proto Timestamp.
 * A leap second (`23:59:60`), valid there but unknown to Date, counts as the minute's last
 * millisecond; anything Date still cannot place answers 422 on the field, never a 500.
 */
export function dateParam(value: string | undefined, field: string) {
  if (value === undefined) return undefined;
  const d = new Date(value.replace(/:60(\.\d+)?(?=[Zz+-]|$)/, ":59.999"));
  if (Number.isNaN(d.getTime())) throw new HttpError(422, "VALIDATION_ERROR", `${field} must be an ISO 8601 date or timestamp`, field);
  return timestampFromDate(d);
}
