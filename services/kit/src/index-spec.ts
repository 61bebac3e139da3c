import type { CreateIndexesOptions, IndexSpecification } from "mongodb";

/** One index a service declares for its collections (created by `ensureIndexes`, checked against every query shape). */
export interface IndexSpec {
  collection: string;
  key: IndexSpecification;
  options?: CreateIndexesOptions;
  /**
   * The key holds an array field. MongoDB indexes each element (multikey); FerretDB on PostgreSQL
   * would put the whole array in one btree row, which serves no element match and fails an insert
   * once the row passes PostgreSQL's limit (2,704 bytes), so there only the GIN indexes are made.
   * A key with a field declared `string[]` (EnsureIndexesOptions.fields) is treated the same way.
   */
  arrays?: true;
}
