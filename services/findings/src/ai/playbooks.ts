/**
 * The Ansible playbooks kept in the repository (ansible/playbooks/<id>.yml) for the common
 * fixes our checks detect. Which finding gets which is data (data/analyst-guidance.json, per
 * check and per product), validated against this list; a unit test checks that each file exists.
 */
export interface Playbook {
  id: string;
  /** What it does, for recommended_actions. */
  does: string;
}

export const PLAYBOOKS: readonly Playbook[] = [
  { id: "redis-hardening", does: "binds Redis to localhost/private addresses, enables protected-mode and requirepass, and disables dangerous commands" },
  { id: "upgrade-vsftpd", does: "upgrades vsftpd from the distribution, disables anonymous login and restarts the service" },
  { id: "upgrade-openssh", does: "upgrades OpenSSH, disables password and root login, and restricts key exchange and ciphers" },
  {
    id: "remove-exposed-files",
    does: "removes exposed VCS metadata, environment and backup files from the web root and denies them in the web server",
  },
  { id: "disable-directory-listing", does: "turns off directory listing (autoindex / Options -Indexes) in nginx and Apache" },
  { id: "disable-http-methods", does: "turns TRACE off and allows only the HTTP methods the site needs" },
  { id: "tls-hardening", does: "restricts TLS to 1.2+ with modern ciphers, enables HSTS and redirects HTTP to HTTPS" },
  {
    id: "security-headers",
    does: "adds Content-Security-Policy, X-Frame-Options, X-Content-Type-Options, Referrer-Policy and Permissions-Policy headers",
  },
];

export const PLAYBOOK_IDS: readonly string[] = PLAYBOOKS.map((p) => p.id);

export function playbook(id: string | undefined): Playbook | undefined {
  return PLAYBOOKS.find((p) => p.id === id);
}
