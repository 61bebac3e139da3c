import type { CheckDef } from "../web/check.js";

const tool = "tls";
const TLS_CHEATSHEET = "https://cheatsheetseries.owasp.org/cheatsheets/Transport_Layer_Security_Cheat_Sheet.html";
const NGINX_MODERN =
  "ssl_protocols TLSv1.2 TLSv1.3;\nssl_ciphers ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305;\nssl_prefer_server_ciphers off;";

const protocol = (version: string, id: string): CheckDef => ({
  templateId: id,
  title: `Deprecated protocol ${version} accepted`,
  vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:N",
  cweIds: ["CWE-326", "CWE-327"],
  tool,
  description: `The server completes a ${version} handshake. ${version} was deprecated by RFC 8996 (2021); its CBC suites are open to BEAST/Lucky13-class attacks and it lacks modern AEAD ciphers.`,
  impact: "Clients that can be downgraded, or that only speak old versions, get weaker confidentiality and integrity; PCI DSS forbids it.",
  remediation: {
    summary: "Accept TLS 1.2 and TLS 1.3 only.",
    steps: [
      "Set the minimum protocol version to TLS 1.2 on every TLS endpoint (web server, load balancer, CDN).",
      "Check legacy clients first; they are rare today.",
    ],
    codeExample: NGINX_MODERN,
    references: ["https://www.rfc-editor.org/rfc/rfc8996", TLS_CHEATSHEET],
  },
});

export const TLS10 = protocol("TLS 1.0", "tls-protocol-tls10");
export const TLS11 = protocol("TLS 1.1", "tls-protocol-tls11");

export const WEAK_CIPHERS: CheckDef = {
  templateId: "tls-weak-ciphers",
  title: "Weak TLS cipher suites accepted",
  vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N",
  cweIds: ["CWE-327", "CWE-326"],
  tool,
  description: "The server negotiates cipher suites that give no or broken protection (NULL, anonymous, EXPORT, RC4, DES/3DES).",
  impact:
    "A client that offers them gets traffic that is unencrypted, unauthenticated, or decryptable (SWEET32 for 3DES, RC4 biases, FREAK/Logjam for EXPORT).",
  remediation: {
    summary: "Allow only AEAD suites with forward secrecy.",
    steps: [
      "Replace the cipher list with a modern one (Mozilla 'intermediate').",
      "Remove eNULL/aNULL/EXPORT/RC4/DES/3DES explicitly where the software keeps them.",
    ],
    codeExample: NGINX_MODERN,
    references: ["https://ssl-config.mozilla.org/", TLS_CHEATSHEET],
  },
};

/** NULL, anonymous and EXPORT suites break integrity too: rated higher than RC4/3DES alone. */
export const BROKEN_CIPHERS: CheckDef = { ...WEAK_CIPHERS, vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N" };

const cert = (id: string, title: string, cwe: string[], description: string, vector = "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N"): CheckDef => ({
  templateId: id,
  title,
  vector,
  cweIds: cwe,
  tool,
  description,
  impact: "Browsers show a certificate error; users who learn to click through can no longer tell this server from an attacker's (man in the middle).",
  remediation: {
    summary: "Install a certificate from a trusted CA that covers every name of the service, and renew it automatically.",
    steps: ["Issue a certificate for the exact host names (e.g. with ACME / Let's Encrypt).", "Automate renewal well before expiry and monitor it."],
    codeExample:
      "certbot --nginx -d example.com -d www.example.com\n# nginx\nssl_certificate     /etc/letsencrypt/live/example.com/fullchain.pem;\nssl_certificate_key /etc/letsencrypt/live/example.com/privkey.pem;",
    references: [TLS_CHEATSHEET, "https://letsencrypt.org/docs/"],
  },
});

export const CERT_EXPIRED = cert("tls-cert-expired", "TLS certificate expired", ["CWE-298", "CWE-295"], "The server's certificate is past its notAfter date.");
export const CERT_NOT_YET_VALID = cert(
  "tls-cert-not-yet-valid",
  "TLS certificate not yet valid",
  ["CWE-298", "CWE-295"],
  "The server's certificate notBefore date is in the future.",
);
export const CERT_SELF_SIGNED = cert(
  "tls-cert-self-signed",
  "Self-signed TLS certificate",
  ["CWE-295"],
  "The server's certificate is signed by its own key, not by a certificate authority.",
);
export const CERT_WRONG_HOST = cert(
  "tls-cert-wrong-host",
  "TLS certificate does not match the host name",
  ["CWE-297", "CWE-295"],
  "The certificate's subject alternative names and common name do not cover the scanned host name.",
);
export const CERT_EXPIRING_SOON = cert(
  "tls-cert-expiring-soon",
  "TLS certificate expires within 30 days",
  ["CWE-298"],
  "The certificate is valid now but expires soon; renewal is not in place or has failed.",
  "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:N/A:L",
);
