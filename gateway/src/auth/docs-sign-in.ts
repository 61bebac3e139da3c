import type { FastifyReply, FastifyRequest } from "fastify";

/*
 * What a browser opening the API docs without credentials gets: a page that says how to sign
 * in, and takes a pasted token (which it exchanges for the docs cookie), instead of a JSON 401.
 * Its script is served by plugins/docs-access.ts; the page holds no part of the reference.
 */

export const DOCS_SIGN_IN_SCRIPT = `// Pasted token → the docs cookie (POST /api/v1/auth/docs-cookie), then the page it came from.
document.getElementById("token-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const token = document.getElementById("token").value.trim();
  const error = document.getElementById("token-error");
  error.textContent = "";
  const res = await fetch("/api/v1/auth/docs-cookie", { method: "POST", headers: { Authorization: "Bearer " + token } });
  if (res.ok) return window.location.reload();
  const body = await res.json().catch(() => ({}));
  error.textContent = body.detail || "That token was not accepted (HTTP " + res.status + ").";
});
`;

const SIGN_IN_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>vulnscan API reference — sign in</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main>
<h1>vulnscan API reference</h1>
<p>The API reference is available once you are signed in.</p>
<p><a href="/">Sign in to the web console</a>, then open this page again from its <strong>API docs</strong> link:
the console lets this browser read the reference, and try the API as you, while your session lasts.</p>
<form id="token-form">
<p><label for="token">Or paste an access token (from <code>POST /api/v1/auth/token</code>):</label></p>
<p><input id="token" name="token" size="60" autocomplete="off" required> <button type="submit">Open the reference</button></p>
<p id="token-error" role="alert"></p>
</form>
<script src="/docs-sign-in.js"></script>
</main></body></html>
`;

const PAGE_HEADERS = {
  "content-security-policy": "default-src 'none'; script-src 'self'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

/** The docs pages a person opens (not the documents machines fetch). */
function isDocsPage(req: FastifyRequest): boolean {
  if (req.method !== "GET") return false;
  const path = req.url.split("?")[0]!;
  return ["/docs", "/docs/", "/docs/static/index.html", "/redoc", "/asyncapi"].includes(path) && (req.headers.accept ?? "").includes("text/html");
}

/** For the guard: answers a browser opening a docs page without credentials with the sign-in page; false otherwise. */
export function answerDocsSignIn(req: FastifyRequest, reply: FastifyReply): boolean {
  if (!isDocsPage(req)) return false;
  void reply.code(401).headers(PAGE_HEADERS).header("www-authenticate", "Bearer").type("text/html; charset=utf-8").send(SIGN_IN_PAGE);
  return true;
}
