/**
 * The kit's pure core: what a service's `domain/` may import. Nothing here reaches a transport,
 * a database or the broker (no Connect, protobuf, mongodb or kafkajs), so a domain written on it
 * can be read and tested without any of them. The runtime (`@vulnscan/kit`) re-exports all of it.
 */
export * from "./domain-errors.js";
export * from "./ids.js";
export * from "./cursor.js";
export * from "./enums.js";
export type { Logger } from "./logger.js";
