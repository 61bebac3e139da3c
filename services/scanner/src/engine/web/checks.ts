import type { CheckDef } from "./check.js";

/* The web checks' fixed facts: ids (the findings' template_id), vectors, CWEs, remediation. */

const tool = "web";
const OWASP_HEADERS = "https://cheatsheetseries.owasp.org/cheatsheets/HTTP_Headers_Cheat_Sheet.html";

const def = (d: Omit<CheckDef, "tool">): CheckDef => ({ tool, ...d });

export const MISSING_HSTS = def({
  templateId: "web-missing-hsts",
  title: "HTTPS response without Strict-Transport-Security",
  vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N",
  cweIds: ["CWE-319", "CWE-693"],
  description: "The HTTPS site does not send a Strict-Transport-Security header, so browsers will still try plain HTTP first.",
  impact: "A network attacker can strip TLS from a user's first request (SSL stripping) and read or change the traffic.",
  remediation: {
    summary: "Send Strict-Transport-Security on every HTTPS response.",
    steps: ["Serve the whole site over HTTPS.", "Add the header with a long max-age (two years) and includeSubDomains once every subdomain has HTTPS."],
    codeExample: 'add_header Strict-Transport-Security "max-age=63072000; includeSubDomains" always;',
    references: [OWASP_HEADERS, "https://www.rfc-editor.org/rfc/rfc6797"],
  },
});

export const MISSING_CSP = def({
  templateId: "web-missing-csp",
  title: "No Content-Security-Policy",
  vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N",
  cweIds: ["CWE-693", "CWE-1021"],
  description: "HTML is served without a Content-Security-Policy header.",
  impact: "Without a policy, any injected script runs with the page's privileges; CSP is the main defence in depth against XSS.",
  remediation: {
    summary: "Define a Content-Security-Policy that allows only the sources the site needs.",
    steps: ["Start with a restrictive policy in Content-Security-Policy-Report-Only and collect reports.", "Enforce it once the reports are clean."],
    codeExample: "add_header Content-Security-Policy \"default-src 'self'; frame-ancestors 'none'; base-uri 'self'\" always;",
    references: [OWASP_HEADERS, "https://developer.mozilla.org/en-US/docs/Web/HTTP/CSP"],
  },
});

export const MISSING_FRAME_PROTECTION = def({
  templateId: "web-missing-clickjacking-protection",
  title: "No X-Frame-Options or CSP frame-ancestors (clickjacking)",
  vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:N/I:L/A:N",
  cweIds: ["CWE-1021", "CWE-693"],
  description: "Pages can be framed by any site: neither X-Frame-Options nor a CSP frame-ancestors directive is sent.",
  impact: "An attacker's page can overlay this site in an invisible frame and trick users into clicking its controls.",
  remediation: {
    summary: "Forbid framing with CSP frame-ancestors (and X-Frame-Options for old browsers).",
    steps: ["Add frame-ancestors 'none' (or 'self') to the Content-Security-Policy.", "Also send X-Frame-Options: DENY."],
    codeExample: 'add_header X-Frame-Options "DENY" always;\nadd_header Content-Security-Policy "frame-ancestors \'none\'" always;',
    references: [OWASP_HEADERS, "https://cheatsheetseries.owasp.org/cheatsheets/Clickjacking_Defense_Cheat_Sheet.html"],
  },
});

export const MISSING_NOSNIFF = def({
  templateId: "web-missing-x-content-type-options",
  title: "No X-Content-Type-Options: nosniff",
  vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:N/I:L/A:N",
  cweIds: ["CWE-693"],
  description: "Responses lack X-Content-Type-Options: nosniff, so browsers may guess content types.",
  impact: "MIME sniffing can turn an uploaded or reflected file into executable script or style.",
  remediation: {
    summary: "Send X-Content-Type-Options: nosniff on every response.",
    steps: ["Add the header globally in the web server or framework.", "Serve every resource with a correct Content-Type."],
    codeExample: 'add_header X-Content-Type-Options "nosniff" always;',
    references: [OWASP_HEADERS],
  },
});

export const MISSING_REFERRER_POLICY = def({
  templateId: "web-missing-referrer-policy",
  title: "No Referrer-Policy",
  vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N",
  cweIds: ["CWE-693", "CWE-200"],
  description: "Responses do not set a Referrer-Policy.",
  impact: "Full URLs, including tokens in paths or query strings, can leak to third-party sites in the Referer header.",
  remediation: {
    summary: "Send Referrer-Policy: strict-origin-when-cross-origin (or stricter).",
    steps: ["Add the header globally.", "Keep secrets out of URLs."],
    codeExample: 'add_header Referrer-Policy "strict-origin-when-cross-origin" always;',
    references: [OWASP_HEADERS],
  },
});

const cookie = (flag: string, id: string, cwe: string, impact: string, example: string) =>
  def({
    templateId: id,
    title: `Cookie without the ${flag} attribute`,
    vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N",
    cweIds: [cwe],
    description: `The site sets cookies without the ${flag} attribute.`,
    impact,
    remediation: {
      summary: `Set ${flag} on every cookie (session cookies above all).`,
      steps: [`Add ${flag} where the application or framework issues cookies.`, "Prefer the __Host- prefix with Secure; Path=/ for session cookies."],
      codeExample: example,
      references: [
        "https://cheatsheetseries.owasp.org/cheatsheets/Session_Management_Cheat_Sheet.html#cookies",
        `https://cwe.mitre.org/data/definitions/${cwe.slice(4)}.html`,
      ],
    },
  });

export const COOKIE_NO_SECURE = cookie(
  "Secure",
  "web-cookie-missing-secure",
  "CWE-614",
  "The browser also sends the cookie over plain HTTP, where a network attacker can read it.",
  "Set-Cookie: session=…; Path=/; Secure; HttpOnly; SameSite=Lax\n# nginx (proxy): proxy_cookie_flags ~ secure httponly samesite=lax;",
);
export const COOKIE_NO_HTTPONLY = cookie(
  "HttpOnly",
  "web-cookie-missing-httponly",
  "CWE-1004",
  "Scripts can read the cookie, so any XSS steals sessions.",
  "Set-Cookie: session=…; Path=/; Secure; HttpOnly\n# PHP: session.cookie_httponly = 1",
);
export const COOKIE_NO_SAMESITE = cookie(
  "SameSite",
  "web-cookie-missing-samesite",
  "CWE-1275",
  "The cookie rides along on cross-site requests, which enables cross-site request forgery.",
  "Set-Cookie: session=…; Path=/; Secure; HttpOnly; SameSite=Lax",
);

export const CORS_REFLECTION = def({
  templateId: "web-cors-origin-reflection",
  title: "CORS reflects any Origin and allows credentials",
  vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:L/A:N",
  cweIds: ["CWE-942", "CWE-346"],
  description: "The server copies any request Origin into Access-Control-Allow-Origin and sends Access-Control-Allow-Credentials: true.",
  impact: "Any website a logged-in user visits can read this site's authenticated responses (data theft, CSRF token theft).",
  remediation: {
    summary: "Allow only a fixed list of trusted origins; never reflect the Origin header blindly with credentials.",
    steps: [
      "Keep an allowlist of exact origins.",
      "Send Access-Control-Allow-Origin only for listed origins, with Vary: Origin.",
      "Drop Allow-Credentials where cookies are not needed.",
    ],
    codeExample:
      'map $http_origin $cors_origin { default ""; "https://app.example.com" $http_origin; }\nadd_header Access-Control-Allow-Origin $cors_origin always;\nadd_header Vary Origin always;',
    references: [
      "https://portswigger.net/web-security/cors",
      "https://cheatsheetseries.owasp.org/cheatsheets/HTML5_Security_Cheat_Sheet.html#cross-origin-resource-sharing",
    ],
  },
});

export const CORS_WILDCARD_CREDENTIALS = def({
  templateId: "web-cors-wildcard-credentials",
  title: "CORS allows any origin (*) together with credentials",
  vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N",
  cweIds: ["CWE-942"],
  description: "Access-Control-Allow-Origin: * is sent with Access-Control-Allow-Credentials: true.",
  impact:
    "Browsers refuse this combination today, but it shows an intent to share credentialed responses with every origin; a small change (reflecting Origin) makes it exploitable.",
  remediation: {
    summary: "Use an explicit origin allowlist when credentials are involved.",
    steps: ["Remove Access-Control-Allow-Credentials, or replace * with listed origins."],
    codeExample: 'add_header Access-Control-Allow-Origin "https://app.example.com" always;',
    references: ["https://developer.mozilla.org/en-US/docs/Web/HTTP/CORS#credentialed_requests_and_wildcards"],
  },
});

export const DIRECTORY_LISTING = def({
  templateId: "web-directory-listing",
  title: "Directory listing enabled",
  vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N",
  cweIds: ["CWE-548"],
  description: "The web server generates an index of files for a directory without an index page.",
  impact: "Anyone can browse and download every file in the directory, including ones never meant to be linked.",
  remediation: {
    summary: "Turn off automatic directory indexes.",
    steps: ["Disable autoindex (nginx) / Options -Indexes (Apache).", "Remove files that should not be public from the web root."],
    codeExample: "# nginx\nautoindex off;\n# Apache\nOptions -Indexes",
    references: ["https://cwe.mitre.org/data/definitions/548.html"],
  },
});

const exposed = (id: string, title: string, cwe: string[], vector: string, impact: string) =>
  def({
    templateId: id,
    title,
    vector,
    cweIds: cwe,
    description: `${title}: the file is served to anyone, and its content was verified (not a soft 404).`,
    impact,
    remediation: {
      summary: "Remove the file from the web root and block such paths at the server.",
      steps: [
        "Delete the file from the deployed document root.",
        "Deploy build artifacts only, not working copies.",
        "Deny dot-files and backup extensions in the server configuration.",
        "Rotate any secret the file contained.",
      ],
      codeExample: "location ~ /\\.(?!well-known) { deny all; }\nlocation ~* \\.(bak|old|orig|swp|zip|tar|gz|sql)$ { deny all; }",
      references: [
        "https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/04-Review_Old_Backup_and_Unreferenced_Files_for_Sensitive_Information",
      ],
    },
  });

const HIGH_READ = "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N";
const LOW_READ = "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N";
export const EXPOSED_GIT = exposed(
  "web-exposed-git",
  "Git repository exposed (/.git/HEAD)",
  ["CWE-538", "CWE-527"],
  HIGH_READ,
  "The whole repository, history and any committed secrets can be downloaded object by object.",
);
export const EXPOSED_ENV = exposed(
  "web-exposed-env",
  "Environment file exposed (/.env)",
  ["CWE-538", "CWE-200"],
  HIGH_READ,
  "Configuration secrets (database passwords, API keys) are readable by anyone.",
);
export const EXPOSED_BACKUP = exposed(
  "web-exposed-backup",
  "Backup archive exposed",
  ["CWE-530", "CWE-538"],
  HIGH_READ,
  "Backups usually hold source code, configuration and data.",
);
export const EXPOSED_CONFIG_BACKUP = exposed(
  "web-exposed-config-backup",
  "Configuration backup exposed",
  ["CWE-530", "CWE-538"],
  HIGH_READ,
  "A backup copy of a server-side script is served as text, with its credentials.",
);
export const EXPOSED_DS_STORE = exposed(
  "web-exposed-ds-store",
  "macOS .DS_Store file exposed",
  ["CWE-538"],
  LOW_READ,
  "It lists the names of files in the directory, including unlinked ones.",
);

export const TRACE_ENABLED = def({
  templateId: "web-trace-enabled",
  title: "HTTP TRACE method enabled",
  vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N",
  cweIds: ["CWE-693", "CWE-200"],
  description: "The server answers TRACE by echoing the request back.",
  impact: "Echoed headers can leak credentials added by proxies, and TRACE enables cross-site tracing attacks.",
  remediation: {
    summary: "Disable TRACE.",
    steps: ["Apache: TraceEnable off.", "nginx and most frameworks: reject methods outside an allowlist."],
    codeExample: "# Apache\nTraceEnable off\n# nginx\nif ($request_method !~ ^(GET|HEAD|POST)$) { return 405; }",
    references: [
      "https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/06-Test_HTTP_Methods",
    ],
  },
});

export const DANGEROUS_METHODS = def({
  templateId: "web-dangerous-methods",
  title: "HTTP PUT/DELETE advertised as allowed",
  vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:L/A:N",
  cweIds: ["CWE-650", "CWE-749"],
  description: "OPTIONS lists PUT and/or DELETE among the allowed methods of the site root.",
  impact: "If the methods work without authorization, anyone can upload or delete files (the check does not try them).",
  remediation: {
    summary: "Allow only the methods each resource needs.",
    steps: ["Disable WebDAV or PUT/DELETE handlers on public paths.", "Require authorization where they are needed."],
    codeExample: "limit_except GET HEAD POST { deny all; }",
    references: [
      "https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/06-Test_HTTP_Methods",
    ],
  },
});

export const NO_HTTPS_REDIRECT = def({
  templateId: "web-missing-https-redirect",
  title: "Plain HTTP served without redirect to HTTPS",
  vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N",
  cweIds: ["CWE-319"],
  description: "The HTTP port serves content instead of redirecting to HTTPS.",
  impact: "Users who type the bare name or follow http:// links use an unencrypted connection that can be read and modified.",
  remediation: {
    summary: "Redirect every plain-HTTP request to HTTPS with a 301.",
    steps: ["Answer all paths on port 80 with a 301 to the https:// URL.", "Then enable HSTS."],
    codeExample: "server {\n  listen 80;\n  server_name example.com;\n  return 301 https://$host$request_uri;\n}",
    references: ["https://cheatsheetseries.owasp.org/cheatsheets/Transport_Layer_Security_Cheat_Sheet.html"],
  },
});
