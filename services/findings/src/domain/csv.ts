// Moved to src/export/csv.ts. This re-export only keeps gateway/test/findings-routes.test.ts
// (outside this change's scope) importing parseCsv from here; delete it once that import moves.
export { parseCsv } from "../export/csv.js";
