import { validationError } from "@vulnscan/kit/core";

/*
 * Free-text search over a finding's title, affected component, CVE ids and template id
 * ("contains", case-insensitive), served by an index rather than a collection scan:
 *
 * - Each finding stores `search_text` (those fields, lower-cased, one per line) and
 *   `search_keys`, the distinct trigrams (3-character substrings) of each field.
 * - A search needs a word of at least 3 characters. One trigram of its longest word is an
 *   equality on `search_keys`: the array field's index (storage/indexes.ts, `org_search`)
 *   narrows the organization's findings to those holding that trigram. Then every word must occur in `search_text` (an
 *   unanchored regex, checked on those candidates only), so the answer is exact.
 */

export const SEARCH_MIN = 3;
export const SEARCH_MAX = 200;

/** What a finding is searchable by. */
export interface Searchable {
  title: string;
  affected_component: string;
  cve_ids: string[];
  template_id: string;
}

export interface SearchFields {
  search_text: string;
  search_keys: string[];
}

const fold = (s: string) => s.normalize("NFKC").toLowerCase();

function trigrams(text: string, into: Set<string>): void {
  for (let i = 0; i + SEARCH_MIN <= text.length; i++) into.add(text.slice(i, i + SEARCH_MIN));
}

/** The stored search fields of a finding. */
export function searchFields(f: Searchable): SearchFields {
  const parts = [f.title, f.affected_component, ...f.cve_ids, f.template_id].map(fold).filter(Boolean);
  const keys = new Set<string>();
  for (const part of parts) trigrams(part, keys);
  return { search_text: parts.join("\n"), search_keys: [...keys].sort() };
}

/** A search as storage runs it: the indexed trigram, and the words every match contains. */
export interface SearchPlan {
  key: string;
  words: string[];
}

/** The plan of a search text; a VALIDATION_ERROR on `search` when it has no word of 3 characters. */
export function searchPlan(text: string): SearchPlan {
  const words = [...new Set(fold(text).split(/\s+/).filter(Boolean))];
  if (text.length > SEARCH_MAX) throw validationError("search", `Search must be at most ${SEARCH_MAX} characters long.`);
  const longest = words.reduce((a, w) => (w.length > a.length ? w : a), "");
  if (longest.length < SEARCH_MIN) throw validationError("search", `Search needs a word of at least ${SEARCH_MIN} characters.`);
  // The middle trigram of the longest word: its ends are more often common affixes ("tio", "ing").
  const at = Math.floor((longest.length - SEARCH_MIN) / 2);
  return { key: longest.slice(at, at + SEARCH_MIN), words };
}

/** Whether a finding's search text holds every word of the plan (the in-memory store's check). */
export function matchesSearch(searchText: string, plan: SearchPlan): boolean {
  return plan.words.every((w) => searchText.includes(w));
}
