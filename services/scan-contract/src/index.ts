export * from "./counts.js";
export * from "./phases.js";
