import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createLogger } from "@vulnscan/kit";
import { FULL_PHASES } from "@vulnscan/scan-contract";
import { buildPhaseHandlers } from "../../services/scanner/src/engine/phases/index.js";
import { runJob } from "../../services/scanner/src/engine/runner.js";
import type { DetectionDraft } from "../../services/scanner/src/engine/types.js";
import { ComplianceMap } from "../../services/scanner/src/intel/compliance.js";
import { enrichDetection } from "../../services/scanner/src/intel/enrich.js";
import { IntelStore } from "../../services/scanner/src/intel/store.js";
import { DEFAULT_INTEL_DIR } from "../../services/scanner/src/config.js";
import { EgressGuard } from "../../services/scanner/src/net/egress.js";
import { loadTemplates } from "../../services/scanner/src/templates-engine/loader.js";
import { startLab, type Lab, type TargetKey } from "../../test/lab/lab.js";

/*
 * Detection benchmark (issue 16): the project's scanner (a full scan, in process, as a worker
 * runs it) and Debian's nmap (`-sV` with the default and safe NSE scripts) against the scan lab's
 * weak host, the same ports for both. Prints, per planted weakness, whether each reports it, and
 * the two wall-clock times.
 *
 *   npx tsx bench/detection/run.ts        (root for the lab's namespace; nmap comes from Debian,
 *                                          installed by the lab's setup.sh when missing)
 *
 * nmap's column (normal output with -v, which names the SSH algorithms and certificate details): "yes" when a script states the weakness, "lists" when the output only shows
 * the raw fact (a version, an algorithm list, data read without a verdict), "-" otherwise.
 * Scripts of the `broadcast` and `external` categories are left out: they send traffic beyond
 * the lab (LAN broadcasts, whois, geolocation and vulners.com look-ups) and never examine the
 * target's own weaknesses.
 *
 * Then false positives on a patched host (issue 27): a full scan of the lab's patched Debian host
 * (Debian's own OpenSSH and nginx, fully updated, HTTP/2 off) by ours and by the previous version
 * of ours (BENCH_PREVIOUS_REV, default the commit before distribution-aware matching, run from a
 * git worktree in the temp folder with this checkout's node_modules). Every CVE finding above
 * info there is a false positive: Debian fixed each of them by a backport, or the feature the CVE
 * needs is off. nmap's version-to-CVE matching (`vulners`) cannot run offline (it asks
 * vulners.com, an `external` script), so it has no column there.
 */

const NMAP_SCRIPTS = "(default or safe) and not (broadcast or external)";
const run = promisify(execFile);

interface Row {
  weakness: string;
  at: TargetKey;
  ours: (d: DetectionDraft) => boolean;
  /** nmap states it. */
  nmap?: RegExp;
  /** nmap shows the raw fact only. */
  lists?: RegExp;
}

const id =
  (...ids: string[]) =>
  (d: DetectionDraft) =>
    ids.includes(d.templateId);

const ROWS: Row[] = [
  {
    weakness: "HTTP Server header with version",
    at: "http",
    ours: id("http-server-version-disclosure"),
    lists: /Server: Apache\/2\.4\.18|http-server-header:.*Apache\/2\.4\.18/,
  },
  { weakness: "X-Powered-By with version", at: "http", ours: id("http-powered-by-disclosure"), lists: /X-Powered-By: PHP\/7/ },
  { weakness: "Default error page with signature", at: "http", ours: id("http-default-error-page"), nmap: /Server at .* Port/ },
  { weakness: "Apache /server-info exposed", at: "http", ours: id("apache-server-info"), nmap: /server-info/ },
  { weakness: "Git repository exposed (/.git/)", at: "http", ours: id("git-repository-exposure"), nmap: /Git repository found/ },
  { weakness: "Environment file exposed (/.env)", at: "http", ours: id("env-file-secrets"), nmap: /\/\.env/ },
  { weakness: "Directory listing (/files/)", at: "http", ours: id("directory-listing"), nmap: /http-ls:|Index of \/files/ },
  { weakness: "Backup of a PHP file (/config.php.bak)", at: "http", ours: id("backup-file-exposed"), nmap: /config\.php\.bak/ },
  { weakness: "Backup archive (/backup.zip)", at: "http", ours: id("web-exposed-backup"), nmap: /backup\.zip/ },
  { weakness: ".DS_Store exposed", at: "http", ours: id("web-exposed-ds-store"), nmap: /DS_Store/ },
  { weakness: "TRACE enabled", at: "http", ours: id("http-trace-enabled"), nmap: /http-trace:.*TRACE is enabled|risky methods:.*TRACE/ },
  { weakness: "Risky methods advertised (PUT, DELETE)", at: "http", ours: id("http-risky-methods"), nmap: /risky methods:.*(PUT|DELETE)/ },
  { weakness: "Cookie without HttpOnly", at: "http", ours: id("cookie-missing-httponly"), nmap: /httponly flag not set/ },
  { weakness: "Cookie without SameSite", at: "http", ours: id("cookie-missing-samesite"), nmap: /samesite/i },
  { weakness: "Cookie without Secure (HTTPS)", at: "tlsWeak", ours: id("web-cookie-missing-secure"), nmap: /secure flag not set/ },
  { weakness: "CORS reflects any origin with credentials", at: "http", ours: id("cors-any-origin-credentials"), nmap: /allow-credentials/i },
  { weakness: "Open redirect (/login?next=)", at: "http", ours: id("open-redirect"), nmap: /open-redirect:/ },
  { weakness: "Admin panel (phpMyAdmin)", at: "http", ours: id("admin-panel-exposed"), nmap: /phpmyadmin/i },
  {
    weakness: "Missing security headers (CSP, X-Frame-Options)",
    at: "http",
    ours: id("web-missing-csp", "web-missing-clickjacking-protection"),
    nmap: /Content-Security-Policy.*not|X-Frame-Options.*not/,
  },
  { weakness: "HSTS missing on HTTPS", at: "tlsWeak", ours: id("web-missing-hsts"), nmap: /HSTS not configured/ },
  { weakness: "No HTTP to HTTPS redirect", at: "http", ours: id("web-missing-https-redirect") },
  { weakness: "TLS certificate expired", at: "tlsWeak", ours: id("tls-cert-expired"), nmap: /expired/i, lists: /Not valid after/ },
  { weakness: "TLS certificate self-signed", at: "tlsWeak", ours: id("tls-cert-self-signed"), nmap: /self-signed/i },
  { weakness: "TLS certificate for another name", at: "tlsWeak", ours: id("tls-cert-wrong-host"), nmap: /mismatch/i, lists: /Subject: commonName=/ },
  { weakness: "TLS certificate RSA key < 2048 bits", at: "tlsWeak", ours: id("tls-cert-short-rsa-key"), lists: /Public Key bits: 1024/ },
  { weakness: "TLS certificate signed with SHA-1", at: "tlsWeak", ours: id("tls-cert-sha1-signature"), lists: /sha1WithRSAEncryption/ },
  { weakness: "TLS 1.3 not supported (info)", at: "tlsWeak", ours: id("tls-no-tls13") },
  { weakness: "TLS 1.0 / 1.1 accepted", at: "tlsWeak", ours: id("tls-protocol-tls10", "tls-protocol-tls11"), nmap: /TLSv1\.[01]:/ },
  { weakness: "NULL / weak TLS cipher suites", at: "tlsWeak", ours: id("tls-weak-ciphers"), nmap: /NULL|least strength: [DEF]/ },
  { weakness: "TLS certificate expiring within 30 days", at: "tlsSoon", ours: id("tls-cert-expiring-soon"), lists: /Not valid after/ },
  { weakness: "TLS certificate not yet valid", at: "tlsFuture", ours: id("tls-cert-not-yet-valid"), lists: /Not valid before/ },
  // nmap's ssl-cert prints the leaf only: nothing about the chain sent or a stapled OCSP response.
  { weakness: "TLS certificate chain incomplete", at: "tlsChain", ours: id("tls-cert-chain-incomplete") },
  { weakness: "OCSP stapling not enabled (info)", at: "tlsChain", ours: id("tls-no-ocsp-stapling") },
  { weakness: "Apache 2.4.18 CVE-2021-40438 (KEV)", at: "http", ours: id("cve:CVE-2021-40438"), nmap: /CVE-2021-40438/ },
  { weakness: "SSH version banner", at: "ssh", ours: id("ssh-version-banner"), lists: /OpenSSH 7\.2p2/ },
  { weakness: "SSH Terrapin (CVE-2023-48795)", at: "ssh", ours: id("ssh-terrapin"), nmap: /CVE-2023-48795|terrapin/i, lists: /chacha20-poly1305@openssh\.com/ },
  { weakness: "SSH weak key exchange (group1/SHA-1)", at: "ssh", ours: id("ssh-weak-kex"), lists: /diffie-hellman-group1-sha1/ },
  { weakness: "SSH weak host keys (DSA, SHA-1 RSA)", at: "ssh", ours: id("ssh-weak-hostkey"), lists: /ssh-dss/ },
  { weakness: "SSH weak ciphers (CBC, 3DES)", at: "ssh", ours: id("ssh-weak-ciphers"), lists: /3des-cbc/ },
  { weakness: "SSH weak MACs (MD5, SHA-1, 64-bit)", at: "ssh", ours: id("ssh-weak-macs"), lists: /hmac-md5/ },
  // ssh-auth-methods (categories auth, intrusive) is not among "default or safe".
  {
    weakness: "SSH password authentication enabled",
    at: "sshPassword",
    ours: id("ssh-password-auth"),
    nmap: /Supported authentication methods:[\s\S]*password/,
  },
  { weakness: "OpenSSH 7.2p2 user enumeration (CVE-2018-15473)", at: "ssh", ours: id("cve:CVE-2018-15473"), nmap: /CVE-2018-15473/ },
  {
    weakness: "vsFTPd 2.3.4 backdoor (CVE-2011-2523)",
    at: "ftp",
    ours: id("cve:CVE-2011-2523"),
    nmap: /CVE-2011-2523|vsFTPd.*backdoor/i,
    lists: /vsftpd 2\.3\.4/,
  },
  { weakness: "FTP version banner", at: "ftp", ours: id("ftp-version-banner"), lists: /vsftpd 2\.3\.4/ },
  { weakness: "SMTP banner names the software", at: "smtp", ours: id("smtp-software-banner"), lists: /Postfix/ },
  { weakness: "MySQL version in handshake", at: "mysql", ours: id("mysql-version-banner"), lists: /5\.7\.33/ },
  { weakness: "Telnet exposed", at: "telnet", ours: id("net-telnet-exposed"), lists: /telnet/ },
  { weakness: "Redis without authentication (real)", at: "redis", ours: id("redis-unauthenticated"), lists: /redis-info:|Version: 7\./ },
  { weakness: "Redis without authentication (protocol fake)", at: "redisLike", ours: id("redis-unauthenticated"), lists: /redis-info:|Version: 3\.2/ },
  { weakness: "memcached without authentication", at: "memcached", ours: id("memcached-unauthenticated"), lists: /memcached-info:/ },
  { weakness: "MongoDB without authentication", at: "mongoLike", ours: id("datastore-mongodb-unauthenticated"), lists: /mongodb-databases:|customers/ },
  { weakness: "PostgreSQL trust authentication", at: "postgres", ours: id("postgres-trust-auth"), lists: /PostgreSQL/ },
  { weakness: "Elasticsearch without authentication", at: "elasticsearch", ours: id("elasticsearch-unauthenticated"), nmap: /elasticsearch/i },
];

async function scanOurs(lab: Lab): Promise<{ ms: number; detections: DetectionDraft[] }> {
  const [intel, compliance, templates] = await Promise.all([IntelStore.load(DEFAULT_INTEL_DIR), ComplianceMap.load(), loadTemplates()]);
  const t0 = performance.now();
  const out = await runJob({
    job: {
      scanId: "bench-detection",
      orgId: "bench",
      target: lab.weak.hostname,
      scanType: "full",
      ports: lab.weak.ports,
      frameworks: [],
      phases: [...FULL_PHASES],
      attempt: 1,
    },
    handlers: buildPhaseHandlers({ templates, intel, compliance }),
    sinks: { report: async () => undefined, detection: async () => undefined },
    guard: new EgressGuard(lab.allowedNetworks, { lookup: lab.lookup }),
    log: createLogger("bench-detection", "silent"),
    enrich: (d) => enrichDetection(d, { intel, compliance, frameworks: [] }),
  });
  const ms = performance.now() - t0;
  if (out.status !== "completed") throw new Error(`our scan ended ${out.status}`);
  return { ms, detections: out.detections };
}

/** What the patched-host comparison keeps of a detection. */
interface Brief {
  templateId: string;
  severity: string;
  cveIds: string[];
  affectedComponent: string;
  confidence?: string;
}

/**
 * A full scan of one lab host by the scanner at `root` (this checkout, or a worktree of an older
 * commit): a small script written beside that tree's sources, run with tsx, prints the detections.
 */
async function scanHostWith(root: string, lab: Lab, host: { hostname: string; address: string; ports: number[] }): Promise<Brief[]> {
  const script = path.join(root, "bench", "detection", `.scan-host-${process.pid}.ts`);
  fs.mkdirSync(path.dirname(script), { recursive: true });
  fs.writeFileSync(
    script,
    `import { createLogger } from "@vulnscan/kit";
import { FULL_PHASES } from "@vulnscan/scan-contract";
import { buildPhaseHandlers } from "../../services/scanner/src/engine/phases/index.js";
import { runJob } from "../../services/scanner/src/engine/runner.js";
import { ComplianceMap } from "../../services/scanner/src/intel/compliance.js";
import { enrichDetection } from "../../services/scanner/src/intel/enrich.js";
import { IntelStore } from "../../services/scanner/src/intel/store.js";
import { DEFAULT_INTEL_DIR } from "../../services/scanner/src/config.js";
import { EgressGuard } from "../../services/scanner/src/net/egress.js";
import { loadTemplates } from "../../services/scanner/src/templates-engine/loader.js";
const a = JSON.parse(process.argv[2]);
const [intel, compliance, templates] = await Promise.all([IntelStore.load(DEFAULT_INTEL_DIR), ComplianceMap.load(), loadTemplates()]);
const out = await runJob({
  job: { scanId: "bench-patched", orgId: "bench", target: a.target, scanType: "full", ports: a.ports, frameworks: [], phases: [...FULL_PHASES], attempt: 1 },
  handlers: buildPhaseHandlers({ templates, intel, compliance }),
  sinks: { report: async () => undefined, detection: async () => undefined },
  guard: new EgressGuard(a.allowed, { lookup: async (n) => (a.names[n] ? [a.names[n]] : []) }),
  log: createLogger("bench-patched", process.env.BENCH_LOG ?? "silent"),
  enrich: (d) => enrichDetection(d, { intel, compliance, frameworks: [] }),
});
if (out.status !== "completed") throw new Error("scan ended " + JSON.stringify(out));
process.stdout.write(JSON.stringify(out.detections.map((d) => ({ templateId: d.templateId, severity: d.severity, cveIds: d.cveIds, affectedComponent: d.affectedComponent, confidence: d.confidence }))));
`,
  );
  try {
    const arg = JSON.stringify({ target: host.hostname, ports: host.ports, allowed: lab.allowedNetworks, names: { [host.hostname]: host.address } });
    const { stdout } = await run(process.execPath, ["--import", "tsx", script, arg], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    return JSON.parse(stdout) as Brief[];
  } finally {
    fs.rmSync(script, { force: true });
  }
}

/** A detached worktree of `rev` in the temp folder, using this checkout's installed packages. */
async function worktreeOf(rev: string): Promise<{ root: string; remove: () => Promise<void> }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-prev-"));
  const repo = path.resolve(import.meta.dirname, "../..");
  await run("git", ["-C", repo, "worktree", "add", "--detach", root, rev]);
  // The root's packages, and each workspace's own (the scanner's p-limit is not the hoisted one).
  const workspaces = ["", "gateway", "proto", ...fs.readdirSync(path.join(repo, "services")).map((d) => path.join("services", d))];
  for (const w of workspaces) {
    const from = path.join(repo, w, "node_modules");
    if (fs.existsSync(from) && fs.existsSync(path.join(root, w))) fs.symlinkSync(from, path.join(root, w, "node_modules"));
  }
  return {
    root,
    remove: async () => {
      await run("git", ["-C", repo, "worktree", "remove", "--force", root]).catch(() => undefined);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

const aboveInfoCves = (ds: Brief[]) => ds.filter((d) => d.cveIds.length > 0 && d.severity !== "info");

/** nmap's normal output cut into one section per port ("80/tcp open http ..." up to the next port). */
function nmapSections(text: string): Map<number, string> {
  const out = new Map<number, string>();
  let port: number | undefined;
  for (const line of text.split("\n")) {
    const m = /^(\d+)\/tcp\s/.exec(line);
    if (m) port = Number(m[1]);
    else if (/^(Service Info|Host script results|Nmap done|MAC Address)/.test(line)) port = undefined;
    if (port !== undefined) out.set(port, `${out.get(port) ?? ""}${line}\n`);
  }
  return out;
}

async function scanNmap(lab: Lab, scripts: string): Promise<{ ms: number; output: string }> {
  const t0 = performance.now();
  const { stdout } = await run("nmap", ["-Pn", "-n", "-v", "-sV", "--script", scripts, "-p", lab.weak.ports.join(","), "-oN", "-", lab.weak.address], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return { ms: performance.now() - t0, output: stdout };
}

const pad = (s: string, n: number) => s.padEnd(n);

async function main() {
  const lab = await startLab();
  try {
    console.log(`[lab] ${lab.note}`);
    const { version } = { version: (await run("nmap", ["--version"])).stdout.split("\n")[0] };
    const ours = await scanOurs(lab);
    // BENCH_SKIP_NMAP=1: ours and the patched host only (nmap's scripts take minutes).
    const skipNmap = process.env.BENCH_SKIP_NMAP === "1";
    const nmap = skipNmap ? { ms: 0, output: "" } : await scanNmap(lab, NMAP_SCRIPTS);
    const sections = nmapSections(nmap.output);
    const portOf = (k: TargetKey) => lab.targets[k].port;
    const portsOfOurs = (d: DetectionDraft, p: number) => new RegExp(`:${p}(/|$|\\b)`).test(d.affectedComponent);

    const width = Math.max(...ROWS.map((r) => r.weakness.length)) + 2;
    const lines = [
      `| ${pad("planted weakness", width)}| port  | ours | confidence                        | nmap  |`,
      `|${"-".repeat(width + 1)}|-------|------|-----------------------------------|-------|`,
    ];
    const verdict = (r: Row, section: string) => (r.nmap?.test(section) ? "yes" : r.lists?.test(section) ? "lists" : "-");
    const count = { ours: 0, yes: 0, lists: 0 };
    for (const r of ROWS) {
      const p = portOf(r.at);
      const hit = ours.detections.find((d) => r.ours(d) && portsOfOurs(d, p));
      const n = skipNmap ? "n/a" : verdict(r, sections.get(p) ?? "");
      if (hit) count.ours++;
      if (n === "yes" || n === "lists") count[n]++;
      lines.push(`| ${pad(r.weakness, width)}| ${pad(String(p), 6)}| ${pad(hit ? "yes" : "-", 5)}| ${pad(hit?.confidence ?? "", 34)}| ${pad(n, 6)}|`);
    }
    console.log(lines.join("\n"));
    console.log(`\nplanted weaknesses: ${ROWS.length}; ours reports ${count.ours}; nmap states ${count.yes} and lists the raw fact of ${count.lists} more`);
    console.log(`ours: full scan (11 phases), ${ours.detections.length} findings, ${(ours.ms / 1000).toFixed(1)} s`);
    console.log(skipNmap ? "nmap: not run (BENCH_SKIP_NMAP=1)" : `nmap: ${version}, -sV --script "${NMAP_SCRIPTS}", ${(nmap.ms / 1000).toFixed(1)} s`);
    console.log(`ports (both): ${lab.weak.ports.join(",")} on ${lab.weak.address} (${lab.mode})`);
    if (process.env.BENCH_NMAP_OUT) console.log(`\n${nmap.output}`);

    // False positives on the patched Debian host: ours now, and the previous version of ours.
    const previousRev = process.env.BENCH_PREVIOUS_REV ?? "ae89157";
    const now = await scanHostWith(path.resolve(import.meta.dirname, "../.."), lab, lab.patched);
    const prev = await worktreeOf(previousRev);
    let before: Brief[];
    try {
      before = await scanHostWith(prev.root, lab, lab.patched);
    } finally {
      await prev.remove();
    }
    const list = (ds: Brief[]) => ds.map((d) => `${d.cveIds.join(",")} ${d.severity}`).join("; ") || "none";
    console.log(
      `\npatched Debian host ${lab.patched.hostname} (${lab.patched.address}, ports ${lab.patched.ports.join(",")}): openssh-server ${lab.patched.packages.openssh}, nginx ${lab.patched.packages.nginx}, HTTP/2 off`,
    );
    console.log(
      "| scanner                             | false positives on patched hosts (CVE findings above info)                         | CVE info notes |",
    );
    console.log(
      "|-------------------------------------|-------------------------------------------------------------------------------------|----------------|",
    );
    for (const [name, ds] of [
      [`previous version of ours (${previousRev})`, before],
      ["ours", now],
    ] as const) {
      const fp = aboveInfoCves(ds);
      const notes = ds.filter((d) => d.cveIds.length > 0 && d.severity === "info").length;
      console.log(`| ${pad(name, 36)}| ${pad(`${fp.length}: ${list(fp)}`, 84)}| ${pad(String(notes), 15)}|`);
    }
  } finally {
    await lab.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
