import fs from "node:fs";
import path from "node:path";

/**
 * The built console (web/dist): its file names listed at start-up, each file read at its first
 * request and kept (a few hundred kilobytes in all), so a replica that serves only the API never
 * holds them.
 */

export interface ConsoleFile {
  path: string;
  /** Read at the first request for the file. */
  body?: Buffer;
  type: string;
  /** Hashed names under assets/ never change content, so browsers may keep them for a year. */
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * No inline script or style anywhere (the build emits none; React sets styles through the DOM,
 * which CSP allows); data: images only for the MFA QR code and the empty favicon.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join("; ");

export const SECURITY_HEADERS = {
  "content-security-policy": CONSOLE_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
} as const;

/** Path inside dist (posix, no leading slash) → file; empty when the console is not built. */
export function loadConsole(dir: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  if (!fs.existsSync(path.join(dir, "index.html"))) return files;
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (entry.isFile()) {
        files.set(rel, {
          path: path.join(dir, rel),
          type: TYPES[path.extname(entry.name)] ?? "application/octet-stream",
          immutable: rel.startsWith("assets/"),
        });
      }
    }
  };
  walk("");
  return files;
}

/** The file's content, read once; undefined when it is gone (the console rebuilt under a running gateway). */
export async function bodyOf(file: ConsoleFile): Promise<Buffer | undefined> {
  file.body ??= await fs.promises.readFile(file.path).catch(() => undefined);
  return file.body;
}

export function cacheControl(file: ConsoleFile): string {
  return file.immutable ? "public, max-age=31536000, immutable" : "no-cache";
}
