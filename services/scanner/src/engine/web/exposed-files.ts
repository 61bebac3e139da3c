import type { HttpResult } from "../../net/http.js";
import { EXPOSED_BACKUP, EXPOSED_CONFIG_BACKUP, EXPOSED_DS_STORE, EXPOSED_ENV, EXPOSED_GIT } from "./checks.js";
import type { CheckDef } from "./check.js";

/*
 * Sensitive files and how to recognise their real content. A 200 alone proves nothing: many
 * sites answer every path with 200 and a "not found" page (soft 404), so each file must match
 * its own signature and differ from what a random path returns.
 */

export interface FileProbe {
  path: string;
  check: CheckDef;
  matches(body: Buffer): boolean;
}

const text = (b: Buffer) => b.subarray(0, 4096).toString("latin1");
const notHtml = (b: Buffer) => !/<(html|body|head|!doctype)/i.test(text(b));

export const FILE_PROBES: FileProbe[] = [
  { path: "/.git/HEAD", check: EXPOSED_GIT, matches: (b) => /^(ref: refs\/[\w./-]+|[0-9a-f]{40})\s*$/.test(text(b)) },
  { path: "/.env", check: EXPOSED_ENV, matches: (b) => notHtml(b) && (text(b).match(/^[A-Za-z_][A-Za-z0-9_]*=.*$/gm)?.length ?? 0) >= 2 },
  {
    path: "/backup.zip",
    check: EXPOSED_BACKUP,
    matches: (b) => b.subarray(0, 4).equals(Buffer.from("PK\x03\x04", "latin1")) || b.subarray(0, 4).equals(Buffer.from("PK\x05\x06", "latin1")),
  },
  { path: "/backup.tar.gz", check: EXPOSED_BACKUP, matches: (b) => b[0] === 0x1f && b[1] === 0x8b },
  { path: "/config.php.bak", check: EXPOSED_CONFIG_BACKUP, matches: (b) => /<\?php/.test(text(b)) },
  { path: "/wp-config.php.bak", check: EXPOSED_CONFIG_BACKUP, matches: (b) => /<\?php/.test(text(b)) },
  { path: "/.DS_Store", check: EXPOSED_DS_STORE, matches: (b) => b.length >= 8 && b.subarray(4, 8).toString("latin1") === "Bud1" },
];

/** True when `res` is the site's answer to a path that does not exist (same status and body). */
export function looksLikeSoft404(res: HttpResult, notFound: HttpResult | undefined): boolean {
  if (!notFound || notFound.status !== res.status) return false;
  return notFound.body.equals(res.body);
}

export function isExposed(probe: FileProbe, res: HttpResult | undefined, notFound: HttpResult | undefined): res is HttpResult {
  return !!res && res.status === 200 && res.body.length > 0 && !looksLikeSoft404(res, notFound) && probe.matches(res.body);
}
