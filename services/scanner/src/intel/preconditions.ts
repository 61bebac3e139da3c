/*
 * What a CVE needs besides a vulnerable version, for the CVEs whose match is otherwise taken on
 * the version alone. NVD's configurations list products and versions, not the protocol feature,
 * module or side (client or server) a flaw lives in; this table adds that for CVEs where it
 * decides whether a version match means anything:
 * - `http2`: the flaw is in HTTP/2 handling; checked by ALPN or the h2c preface first.
 * - `ssh-terrapin`: the flaw needs ChaCha20-Poly1305 or CBC with Encrypt-then-MAC without strict
 *   key exchange; checked from the server's KEXINIT.
 * - `client-side`: the flaw is in a client program shipped with the server package; a server's
 *   banner cannot show the client's version or use, so the match is an info note at most.
 * - `unobservable`: needs a module or setting that cannot be seen without exploiting the flaw;
 *   the finding stands on the version and says what it assumes.
 * CVEs not listed are matched on the version alone.
 */

export type Precondition =
  | { kind: "http2"; needs: string }
  | { kind: "ssh-terrapin"; needs: string }
  | { kind: "client-side"; why: string }
  | { kind: "unobservable"; needs: string };

export const CVE_PRECONDITIONS: Record<string, Precondition> = {
  "CVE-2023-44487": { kind: "http2", needs: "HTTP/2 (Rapid Reset abuses HTTP/2 stream cancellation)" },
  "CVE-2023-48795": {
    kind: "ssh-terrapin",
    needs: "ChaCha20-Poly1305 or a CBC cipher with an Encrypt-then-MAC MAC, offered without strict key exchange",
  },
  "CVE-2023-38408": {
    kind: "client-side",
    why: "the flaw is in ssh-agent's PKCS#11 support on the client side: it is reachable only when a user forwards an agent to a host the attacker controls, and a server's banner shows the server package, not the agents of the people who connect to it",
  },
  "CVE-2016-10009": {
    kind: "client-side",
    why: "the flaw is in ssh-agent loading PKCS#11 modules requested through a forwarded agent, on the client side: a server's banner shows neither the clients' ssh-agent version nor whether they forward it",
  },
  "CVE-2021-23017": { kind: "unobservable", needs: "the `resolver` directive (the flaw is in nginx's DNS resolver)" },
  "CVE-2022-41741": { kind: "unobservable", needs: "ngx_http_mp4_module serving MP4 files with the `mp4` directive" },
  "CVE-2021-40438": { kind: "unobservable", needs: "mod_proxy forwarding requests" },
  "CVE-2021-44790": { kind: "unobservable", needs: "mod_lua scripts that call r:parsebody()" },
  "CVE-2021-41773": { kind: "unobservable", needs: "files outside the document root not denied by `Require all denied` (or mod_cgi enabled)" },
  "CVE-2021-42013": { kind: "unobservable", needs: "files outside the document root not denied by `Require all denied` (or mod_cgi enabled)" },
};
