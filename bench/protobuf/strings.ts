// What Protobuf-ES's string encoding costs a service: CPU to encode (toBinary) and decode
// (fromBinary) one findings list response of 20 findings, with the library's default text
// encoding (TextEncoder / TextDecoder) beside the one every deployable sets at start
// (services/kit/src/text-encoding.ts: Buffer.from). The two alternate round by round in one
// process and are timed by process.cpuUsage(), so another process's load moves both alike.
// Usage: npx tsx bench/protobuf/strings.ts [--rounds 8] [--calls 1500]
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { configureTextEncoding, getTextEncoding } from "@bufbuild/protobuf/wire";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ListFindingsResponseSchema } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { parseArgs } from "node:util";
import { useNodeTextEncoding } from "../../services/kit/src/text-encoding.js";

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
const message = create(ListFindingsResponseSchema, { findings: Array.from({ length: 20 }, (_, i) => finding(i)) });
const bytes = toBinary(ListFindingsResponseSchema, message);

/** CPU microseconds per call of `fn`, after a warm-up. */
function cpuPerCall(fn: () => unknown): number {
  for (let i = 0; i < CALLS / 5; i++) fn();
  const start = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / CALLS;
}

const library = getTextEncoding();
useNodeTextEncoding();
const ours = getTextEncoding();
const modes = [
  ["library default (TextEncoder)", library],
  ["deployables (Buffer.from)", ours],
] as const;
const results = new Map<string, { encode: number[]; decode: number[] }>(modes.map(([name]) => [name, { encode: [], decode: [] }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, encoding] of modes) {
    configureTextEncoding(encoding);
    const r = results.get(name)!;
    r.encode.push(cpuPerCall(() => toBinary(ListFindingsResponseSchema, message)));
    r.decode.push(cpuPerCall(() => fromBinary(ListFindingsResponseSchema, bytes)));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
const lines = [
  `## Protobuf strings: one 20-finding list response (${bytes.length} bytes), CPU µs per call, median (range) of ${ROUNDS} alternating rounds of ${CALLS}`,
  "",
  "| text encoding | toBinary | fromBinary |",
  "|---|---:|---:|",
  ...[...results].map(([name, r]) => `| ${name} | ${median(r.encode).toFixed(0)} (${range(r.encode)}) | ${median(r.decode).toFixed(0)} (${range(r.decode)}) |`),
  "",
];
process.stdout.write(`${lines.join("\n")}\n`);
