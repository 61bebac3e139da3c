import { configureTextEncoding, getTextEncoding } from "@bufbuild/protobuf/wire";

/**
 * Protobuf-ES writes every string through `TextEncoder.encode`, which in Node 20 costs about three
 * times `Buffer.from` for the short strings our messages carry: a 20-finding list response took
 * 1.05 ms to encode, 0.56 ms with `Buffer.from` (docs/decisions.md, "Protobuf strings"). The bytes
 * are the same; Protobuf-ES copies each string's chunk into the message's own buffer, so a slice
 * of Node's shared pool never escapes. Decoding keeps `TextDecoder`, which measured no slower.
 * The setting is process-wide (a global symbol), so it holds for every bundled copy of the library.
 */
export function useNodeTextEncoding(): void {
  const platform = getTextEncoding();
  configureTextEncoding({ ...platform, encodeUtf8: (text: string) => Buffer.from(text, "utf8") });
}
