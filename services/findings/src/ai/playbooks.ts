/**
 * The Ansible playbooks kept in the repository (ansible/playbooks/<id>.yml) for the common
 * fixes our checks detect, and how a finding is matched to one. The analyst only ever names a
 * playbook of this list; a unit test checks that each file exists.
 */
export interface PlaybookRule {
  id: string;
  /** What it does, for recommended_actions. */
  does: string;
  match(f: { text: string; cwes: Set<string> }): boolean;
}

const has = (text: string, ...words: string[]) => words.some((w) => text.includes(w));

export const PLAYBOOKS: PlaybookRule[] = [
  {
    id: "redis-hardening",
    does: "binds Redis to localhost/private addresses, enables protected-mode and requirepass, and disables dangerous commands",
    match: ({ text }) => has(text, "redis"),
  },
  {
    id: "upgrade-vsftpd",
    does: "upgrades vsftpd from the distribution, disables anonymous login and restarts the service",
    match: ({ text }) => has(text, "vsftpd", "anonymous ftp", "ftp-anon", "ftp anonymous"),
  },
  {
    id: "upgrade-openssh",
    does: "upgrades OpenSSH, disables password and root login, and restricts key exchange and ciphers",
    match: ({ text }) => has(text, "openssh", "ssh-"),
  },
  {
    id: "remove-exposed-files",
    does: "removes exposed VCS metadata, environment and backup files from the web root and denies them in the web server",
    match: ({ text, cwes }) =>
      has(text, ".git", ".env", ".svn", ".hg", ".ds_store", "backup file", "exposed-file", "git-config", "git-repository", "env-file", "phpinfo") ||
      cwes.has("CWE-538") ||
      cwes.has("CWE-527"),
  },
  {
    id: "disable-directory-listing",
    does: "turns off directory listing (autoindex / Options -Indexes) in nginx and Apache",
    match: ({ text, cwes }) => has(text, "directory listing", "dir-listing", "directory-listing", "autoindex", "index of") || cwes.has("CWE-548"),
  },
  {
    id: "disable-http-methods",
    does: "turns TRACE off and allows only the HTTP methods the site needs",
    match: ({ text }) => has(text, "trace method", "trace-enabled", "http trace", "dangerous-methods", "dangerous http methods", "webdav"),
  },
  {
    id: "tls-hardening",
    does: "restricts TLS to 1.2+ with modern ciphers, enables HSTS and redirects HTTP to HTTPS",
    match: ({ text, cwes }) =>
      has(text, "tls", "ssl", "cipher", "certificate", "hsts", "sslv", "weak-protocol", "https-redirect", "redirect to https") ||
      ["CWE-326", "CWE-327", "CWE-319", "CWE-295"].some((c) => cwes.has(c)),
  },
  {
    id: "security-headers",
    does: "adds Content-Security-Policy, X-Frame-Options, X-Content-Type-Options, Referrer-Policy and Permissions-Policy headers",
    match: ({ text, cwes }) =>
      has(text, "header", "clickjacking", "x-frame-options", "content-security-policy", "csp", "referrer-policy", "x-content-type-options") ||
      ["CWE-693", "CWE-1021"].some((c) => cwes.has(c)),
  },
];

export const PLAYBOOK_IDS = PLAYBOOKS.map((p) => p.id);

export function playbookFor(f: { text: string; cwes: Set<string> }): PlaybookRule | undefined {
  return PLAYBOOKS.find((p) => p.match(f));
}
