/**
 * The kit's pure core: what a service's `domain/` may import. Nothing here reaches a transport,
 * a database or the broker (no Connect, protobuf, mongodb or kafkajs), so a domain written on it
 * can be read and tested without any of them. The runtime (`@vulnscan/kit`) re-exports the same modules
 * except networks.ts (IP ranges for the egress allowlists), which the rest of the code imports by its path.
 */
export * from "./domain-errors.js";
export * from "./ids.js";
export * from "./cursor.js";
export * from "./enums.js";
export * from "./networks.js";
export * from "./coverage.js";
export type { Logger } from "./logger.js";
