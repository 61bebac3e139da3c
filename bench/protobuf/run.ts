// What a list response's RPC encoding costs a service and the gateway: CPU to encode (toBinary)
// and decode (fromBinary) one findings list response and one scans list response of 20 items,
// beside JSON.stringify and JSON.parse of the same response's JSON (the baseline: what the
// REST side pays for the same data). The four alternate round by round in one process and are
// timed by process.cpuUsage(), so another process's load moves them alike.
// Usage: npx tsx bench/protobuf/run.ts [--rounds 8] [--calls 1500]
import { create, type DescMessage, fromBinary, type MessageShape, toBinary, toJson } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ListFindingsResponseSchema } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { ListScansResponseSchema, ScanStatus, ScanType } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({ options: { rounds: { type: "string", default: "8" }, calls: { type: "string", default: "1500" } } });
const ROUNDS = Number(args.rounds);
const CALLS = Number(args.calls);

const now = timestampFromDate(new Date());
const finding = (i: number) => ({
  id: `finding_01HX${String(i).padStart(22, "0")}`,
  orgId: "org_01HABCDEFGHJKMNPQRSTVWXYZ",
  title: `Outdated TLS configuration on host ${i}`,
  cvssScore: 7.5,
  cvssVector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
  target: `host-${i}.example.test`,
  affectedComponent: "nginx 1.18.0",
  tool: "nuclei",
  templateId: `tls-weak-${i}`,
  cveIds: ["CVE-2024-12345"],
  cweIds: ["CWE-326"],
  scanId: "scan_01HXYZABCDEFGHJKMNPQRSTV",
  detectedAt: now,
  lastSeenAt: now,
  description: "The server accepts TLS 1.0 and weak cipher suites, which lets an attacker on the path downgrade connections.",
  impact: "Traffic may be decrypted or altered.",
  remediation: { summary: "Disable TLS 1.0 and 1.1", steps: ["Edit ssl_protocols", "Reload nginx"], references: ["https://nginx.org/en/docs/"] },
  frameworks: [
    { name: "pci-dss", controls: ["4.2.1"] },
    { name: "soc2", controls: ["CC6.7"] },
  ],
  dueDateSource: "policy",
  slaState: "on_track",
});
const scan = (i: number) => ({
  id: `scan_01HX${String(i).padStart(22, "0")}`,
  orgId: "org_01HABCDEFGHJKMNPQRSTVWXYZ",
  target: `10.0.${i}.0/24`,
  scanType: ScanType.FULL,
  status: ScanStatus.COMPLETED,
  progress: 100,
  phase: "report",
  currentTool: "nuclei",
  createdAt: now,
  startedAt: now,
  completedAt: now,
  phasesCompleted: ["discovery", "port_scan", "service_detection", "vulnerability_scan", "report"],
  vulnerabilitiesFound: 12,
  highCount: 3,
  mediumCount: 9,
  frameworks: ["pci-dss"],
  ports: "top-1000",
  estimatedDurationSeconds: 900,
  createdBy: { userId: "user_01HXYZABCDEFGHJKMNPQRSTV", displayName: "analyst@example.test" },
});

/** One response: its message, its bytes and its JSON text. */
function responseOf<D extends DescMessage>(schema: D, init: object) {
  const message = create(schema, init as never) as MessageShape<D>;
  return { schema, message, bytes: toBinary(schema, message), json: JSON.stringify(toJson(schema, message)) };
}
const responses = [
  ["findings list (20)", responseOf(ListFindingsResponseSchema, { findings: Array.from({ length: 20 }, (_, i) => finding(i)) })],
  ["scans list (20)", responseOf(ListScansResponseSchema, { scans: Array.from({ length: 20 }, (_, i) => scan(i)) })],
] as const;

/** CPU microseconds per call of `fn`, after a warm-up. */
function cpuPerCall(fn: () => unknown): number {
  for (let i = 0; i < CALLS / 5; i++) fn();
  const start = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / CALLS;
}

const OPS = ["toBinary", "fromBinary", "JSON.stringify", "JSON.parse"] as const;
const results = new Map(responses.map(([name]) => [name, new Map(OPS.map((op) => [op, [] as number[]]))]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, r] of responses) {
    const plain = JSON.parse(r.json) as unknown;
    const times = results.get(name)!;
    times.get("toBinary")!.push(cpuPerCall(() => toBinary(r.schema, r.message)));
    times.get("fromBinary")!.push(cpuPerCall(() => fromBinary(r.schema, r.bytes)));
    times.get("JSON.stringify")!.push(cpuPerCall(() => JSON.stringify(plain)));
    times.get("JSON.parse")!.push(cpuPerCall(() => JSON.parse(r.json)));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
const cell = (xs: number[]) => `${median(xs).toFixed(0)} (${range(xs)})`;
const lines = [
  `## Protobuf-ES: CPU µs per call, median (range) of ${ROUNDS} alternating rounds of ${CALLS}; JSON of the same response as the baseline`,
  "",
  "| response | bytes (JSON) | toBinary | fromBinary | JSON.stringify | JSON.parse |",
  "|---|---:|---:|---:|---:|---:|",
  ...responses.map(([name, r]) => `| ${name} | ${r.bytes.length} (${r.json.length}) | ${OPS.map((op) => cell(results.get(name)!.get(op)!)).join(" | ")} |`),
  "",
];
process.stdout.write(`${lines.join("\n")}\n`);
