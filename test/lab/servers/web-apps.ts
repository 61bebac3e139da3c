import type http from "node:http";

/*
 * The two web applications of the lab. `weakApp` plants one instance of every web weakness the
 * scanner checks; `hardenedApp` does everything right. Unknown paths on the weak app answer
 * 200 with a "not found" page (a soft 404), so exposed-file checks must verify content.
 */

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const SOFT_404 = "<html><head><title>Page not found</title></head><body><h1>Sorry, that page does not exist.</h1></body></html>";

export const WEAK_FILES: Record<string, { type: string; body: Buffer }> = {
  "/.git/HEAD": { type: "text/plain", body: Buffer.from("ref: refs/heads/main\n") },
  "/.env": {
    type: "text/plain",
    body: Buffer.from(
      "APP_ENV=production\nDB_HOST=db.internal\nDB_PASSWORD=s3cr3t-lab-password\nAWS_SECRET_ACCESS_KEY=labonlynotarealkey0000000000000000000000\n",
    ),
  },
  // A real (empty) zip: end-of-central-directory record only.
  "/backup.zip": { type: "application/zip", body: Buffer.from("504b0506000000000000000000000000000000000000", "hex") },
  "/config.php.bak": { type: "application/octet-stream", body: Buffer.from("<?php\n$db_user = 'app';\n$db_password = 'lab-password';\n?>\n") },
  // Start of a .DS_Store: alignment header then the "Bud1" buddy-allocator magic.
  "/.DS_Store": { type: "application/octet-stream", body: Buffer.concat([Buffer.from("0000000142756431", "hex"), Buffer.alloc(24)]) },
};

/** Apache's stock 404 page with its signature (ServerSignature On), as /cgi-bin/ answers on a default install. */
const APACHE_404 = (url: string, host: string) =>
  `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL ${url} was not found on this server.</p>\n<hr>\n<address>Apache/2.4.18 (Ubuntu) Server at ${host} Port 80</address>\n</body></html>\n`;

/** mod_info's page (/server-info), shortened. */
const SERVER_INFO = `<!DOCTYPE html><html><head><title>Server Information</title></head><body><h1 style="text-align: center">Apache Server Information</h1>
<h2><a name="server">Server Settings</a></h2><dl><dt><strong>Server Version:</strong> <font size="+1"><tt>Apache/2.4.18 (Ubuntu)</tt></font></dt>
<dt><strong>Server Root:</strong> <tt>/etc/apache2</tt></dt><dt><strong>Config File:</strong> <tt>/etc/apache2/apache2.conf</tt></dt></dl></body></html>`;

const PHPMYADMIN = `<!DOCTYPE HTML><html lang="en" dir="ltr"><head><meta charset="utf-8"><title>phpMyAdmin</title></head><body>
<form method="post" action="index.php" name="login_form"><input type="text" name="pma_username" id="input_username"><input type="password" name="pma_password" id="input_password"><input type="submit" value="Go"></form></body></html>`;

const LISTING = `<html><head><title>Index of /files/</title></head><body><h1>Index of /files/</h1><hr><pre><a href="../">../</a>
<a href="report-2024.pdf">report-2024.pdf</a>                                  01-Mar-2024 10:00    1024
<a href="users.csv">users.csv</a>                                        01-Mar-2024 10:00     512
</pre><hr></body></html>`;

export const weakApp: Handler = (req, res) => {
  const origin = req.headers.origin;
  // CORS: any origin reflected, with credentials.
  if (origin) {
    res.setHeader("Access-Control-Allow-Origin", origin);
    res.setHeader("Access-Control-Allow-Credentials", "true");
  }
  res.setHeader("Server", "Apache/2.4.18 (Ubuntu)");
  res.setHeader("X-Powered-By", "PHP/7.0.33-0ubuntu0.16.04.16");
  if (req.method === "TRACE") {
    const head = [`${req.method} ${req.url} HTTP/${req.httpVersion}`, ...Object.entries(req.headers).map(([k, v]) => `${k}: ${String(v)}`)].join("\r\n");
    res.writeHead(200, { "Content-Type": "message/http" });
    return res.end(`${head}\r\n\r\n`);
  }
  if (req.method === "OPTIONS") {
    res.writeHead(200, { Allow: "GET, HEAD, POST, PUT, DELETE, OPTIONS, TRACE" });
    return res.end();
  }
  const url = (req.url ?? "/").split("?")[0]!;
  const file = WEAK_FILES[url];
  if (file) {
    res.writeHead(200, { "Content-Type": file.type });
    return res.end(req.method === "HEAD" ? undefined : file.body);
  }
  if (url.startsWith("/cgi-bin/")) {
    res.writeHead(404, { "Content-Type": "text/html; charset=iso-8859-1" });
    return res.end(APACHE_404(url, req.headers.host ?? "localhost"));
  }
  if (url === "/phpmyadmin/") {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    return res.end(PHPMYADMIN);
  }
  if (url === "/login") {
    // Open redirect: `next` is followed wherever it points.
    const next = new URL(req.url ?? "/", "http://lab").searchParams.get("next");
    if (next) {
      res.writeHead(302, { Location: next, "Content-Type": "text/html" });
      return res.end();
    }
  }
  if (url === "/server-info") {
    res.writeHead(200, { "Content-Type": "text/html" });
    return res.end(SERVER_INFO);
  }
  if (url === "/files/") {
    res.writeHead(200, { "Content-Type": "text/html" });
    return res.end(LISTING);
  }
  if (url === "/") {
    res.setHeader("Set-Cookie", ["PHPSESSID=lab0123456789; path=/", "prefs=dark; path=/"]);
    res.writeHead(200, { "Content-Type": "text/html" });
    return res.end('<html><head><title>Acme Intranet</title></head><body>Welcome. See <a href="/files/">files</a>.</body></html>');
  }
  res.writeHead(200, { "Content-Type": "text/html" });
  res.end(SOFT_404);
};

export const HARDENED_HEADERS: Record<string, string> = {
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains; preload",
  "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

export const hardenedApp: Handler = (req, res) => {
  for (const [k, v] of Object.entries(HARDENED_HEADERS)) res.setHeader(k, v);
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain" });
    return res.end("method not allowed\n");
  }
  const url = (req.url ?? "/").split("?")[0]!;
  if (url === "/") {
    res.setHeader("Set-Cookie", "__Host-session=lab0123456789; Path=/; Secure; HttpOnly; SameSite=Strict");
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
    return res.end("<!doctype html><html><head><title>Hardened</title></head><body>Nothing to see.</body></html>");
  }
  res.writeHead(404, { "Content-Type": "text/plain" });
  res.end("not found\n");
};

/** Port 80 of the hardened host: permanent redirect to HTTPS, nothing else. */
export const redirectToHttps =
  (hostname: string, httpsPort: number): Handler =>
  (req, res) => {
    const port = httpsPort === 443 ? "" : `:${httpsPort}`;
    res.writeHead(301, { Location: `https://${hostname}${port}${req.url ?? "/"}`, "Content-Type": "text/plain" });
    res.end("moved\n");
  };
