// Findings' operator entry point (package export `@vulnscan/findings/admin`), for the operator
// CLI (`npm run admin -- rebuild-rollups`): callers get the operation, not findings' storage.
export { rebuildRollups } from "./storage/rollups.js";
export { indexSearch } from "./storage/search-index.js";
