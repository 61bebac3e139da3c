/**
 * lru-cache options for at most `entries` entries, with the cache's arrays grown as entries
 * arrive. Given `max`, lru-cache allocates its key and value arrays for every entry up front
 * (16 bytes an entry, resident from the start: 1.5 MiB at 100,000), which an idle gateway paid
 * for caches that hold a few hundred entries; counted as one a piece, `maxSize` evicts the same
 * least recently used entry at the same count.
 */
export const upTo = (entries: number) => ({ maxSize: entries, sizeCalculation: () => 1 });
