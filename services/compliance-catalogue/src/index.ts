export * from "./cwe-map.js";
export * from "./frameworks.js";
