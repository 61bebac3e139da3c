// The same short tour in every client library (clients/*/examples): sign in, scan the target,
// wait for the scan, page through its findings, triage one, export CSV, verify a webhook
// delivery. Prints one JSON line of what it saw. Settings from the environment:
// VULNSCAN_URL, VULNSCAN_EMAIL, VULNSCAN_PASSWORD, TARGET, PORTS, WEBHOOK_FILE (a received
// delivery: {"body": "...", "headers": {...}}), WEBHOOK_SECRET.
import fs from "node:fs";
import { Vulnscan, VulnscanError, verifyWebhook } from "@vulnscan/client";

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};

const vs = await Vulnscan.signIn({ baseUrl: env("VULNSCAN_URL") }, { email: env("VULNSCAN_EMAIL"), password: env("VULNSCAN_PASSWORD") });

const scan = await vs.data(vs.api.POST("/api/v1/scans", { body: { target: env("TARGET"), ports: env("PORTS"), scan_type: "quick", authorized: true } }));
let status = scan.status as string;
while (!["completed", "failed", "cancelled"].includes(status)) {
  await new Promise((r) => setTimeout(r, 1000));
  status = (await vs.data(vs.api.GET("/api/v1/scans/{scan_id}", { params: { path: { scan_id: scan.id } } }))).status;
}

// Two per page, so a handful of findings takes several pages.
const ids: string[] = [];
for await (const f of vs.paginate((q) => vs.api.GET("/api/v1/findings", { params: { query: { scan_id: scan.id, per_page: 2, ...q } } }))) ids.push(f.id);

const updated = await vs.data(vs.api.PATCH("/api/v1/findings/{finding_id}", { params: { path: { finding_id: ids[0]! } }, body: { status: "in_progress" } }));

const csv = (await vs.data(
  vs.api.GET("/api/v1/findings/export", { params: { query: { format: "csv", scan_id: scan.id } }, parseAs: "text" }),
)) as unknown as string;

let refused = "";
try {
  await vs.data(vs.api.GET("/api/v1/findings/{finding_id}", { params: { path: { finding_id: "finding_does_not_exist" } } }));
} catch (err) {
  if (err instanceof VulnscanError) refused = err.errorCode;
}

const delivery = JSON.parse(fs.readFileSync(env("WEBHOOK_FILE"), "utf8")) as { body: string; headers: Record<string, string> };
const verified = verifyWebhook({ body: delivery.body, headers: delivery.headers, secret: env("WEBHOOK_SECRET"), toleranceSeconds: 3600 });
let tampered = "accepted";
try {
  verifyWebhook({ body: `${delivery.body} `, headers: delivery.headers, secret: env("WEBHOOK_SECRET"), toleranceSeconds: 3600 });
} catch {
  tampered = "refused";
}

console.log(
  JSON.stringify({
    language: "typescript",
    scan_id: scan.id,
    status,
    findings: ids.length,
    updated: { id: updated.id, status: updated.status },
    csv_lines: csv.trim().split("\n").length,
    not_found: refused,
    webhook: { id: verified.id, event: verified.event, tampered },
  }),
);
