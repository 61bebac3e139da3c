import net from "node:net";
import tls from "node:tls";
import type { DetectionDraft, Service } from "../engine/types.js";
import type { EgressGuard } from "../net/egress.js";
import { httpRequest } from "../net/http.js";
import { connectTcp } from "../net/tcp.js";
import { extract, httpResponse, probeMatches, socketResponse, type ProbeResponse } from "./matchers.js";
import type { HttpProbe, SocketProbe, Template } from "./schema.js";

/** Ports where an unidentified service is assumed to speak HTTP. */
const WEB_PORTS = new Set([80, 443, 591, 3000, 5000, 8000, 8008, 8080, 8081, 8443, 8888, 9000, 9090]);
const WEB_NAMES = new Set(["http", "https", "http-proxy", "http-alt"]);
const EVIDENCE_CHARS = 2048;

export interface ExecOptions {
  guard: EgressGuard;
  signal?: AbortSignal;
  /** Per connection or request. */
  timeoutMs?: number;
}

export interface TemplateHit {
  template: Template;
  service: Service;
  /** URL (HTTP) or tcp://host:port / tls://host:port. */
  location: string;
  request: string;
  response: string;
  extracted: Record<string, string[]>;
}

const inSelector = (t: Template, s: Service) =>
  !!t.services && ((s.name !== undefined && t.services.names.includes(s.name)) || t.services.ports.includes(s.port));

export function isWebService(s: Service): boolean {
  return s.name !== undefined ? WEB_NAMES.has(s.name) : WEB_PORTS.has(s.port);
}

/** Which of a template's probe kinds apply to a service (HTTP by default to web services; TCP to plain, TLS to TLS ports). */
export function appliesTo(t: Template, s: Service): { http: boolean; tcp: boolean; tls: boolean } {
  const selected = t.services ? inSelector(t, s) : isWebService(s);
  return {
    http: !!t.http?.length && selected,
    tcp: !!t.tcp?.length && selected && !s.tls,
    tls: !!t.tls?.length && selected && s.tls,
  };
}

const hostPart = (h: string) => (net.isIPv6(h) ? `[${h}]` : h);

/** Runs a template against one service; the first probe that matches is the hit. */
export async function runTemplate(t: Template, s: Service, opts: ExecOptions): Promise<TemplateHit | undefined> {
  const applies = appliesTo(t, s);
  if (applies.http)
    for (const probe of t.http ?? []) {
      const hit = await runHttpProbe(t, probe, s, opts);
      if (hit) return hit;
    }
  if (applies.tcp)
    for (const probe of t.tcp ?? []) {
      const hit = await runSocketProbe(t, probe, s, false, opts);
      if (hit) return hit;
    }
  if (applies.tls)
    for (const probe of t.tls ?? []) {
      const hit = await runSocketProbe(t, probe, s, true, opts);
      if (hit) return hit;
    }
  return undefined;
}

async function runHttpProbe(t: Template, probe: HttpProbe, s: Service, opts: ExecOptions): Promise<TemplateHit | undefined> {
  const scheme = s.tls ? "https" : "http";
  const base = `${scheme}://${hostPart(s.host)}:${s.port}`;
  const shown = `${scheme}://${hostPart(s.hostname ?? s.host)}:${s.port}`;
  const headers: Record<string, string> = { ...probe.headers };
  if (s.hostname && !Object.keys(headers).some((h) => h.toLowerCase() === "host")) headers.host = `${s.hostname}:${s.port}`;
  for (const path of probe.path) {
    if (opts.signal?.aborted) return undefined;
    const res = await httpRequest(`${base}${path}`, {
      guard: opts.guard,
      method: probe.method,
      headers,
      ...(probe.body !== undefined ? { body: probe.body } : {}),
      timeoutMs: opts.timeoutMs ?? 8000,
      maxBodyBytes: probe.max_body_bytes,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const response = httpResponse(res.status, res.rawHeaders, res.body);
    if (!probeMatches(probe, response)) continue;
    const extracted = maskExtracted(extract(probe.extractors, response));
    return {
      template: t,
      service: s,
      location: `${shown}${path}`,
      request: res.requestText,
      response: evidence(res.responseText, t.redact_evidence, extracted),
      extracted,
    };
  }
  return undefined;
}

async function runSocketProbe(t: Template, probe: SocketProbe, s: Service, useTls: boolean, opts: ExecOptions): Promise<TemplateHit | undefined> {
  const timeoutMs = opts.timeoutMs ?? 8000;
  const raw = await connectTcp(s.host, s.port, { guard: opts.guard, timeoutMs, ...(opts.signal ? { signal: opts.signal } : {}) });
  let socket: net.Socket = raw;
  const onAbort = () => socket.destroy();
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  const sent: string[] = [];
  const chunks: Buffer[] = [];
  try {
    if (useTls) socket = await startTls(raw, s.hostname, timeoutMs);
    const budget = { left: probe.read_size };
    if (probe.read_banner) chunks.push(await readIdle(socket, probe.read_timeout_ms, budget));
    for (const input of probe.inputs) {
      const bytes = input.type === "hex" ? Buffer.from(input.data.replace(/\s+/g, ""), "hex") : Buffer.from(input.data, "latin1");
      sent.push(printable(bytes));
      if (socket.destroyed) break;
      socket.write(bytes);
      chunks.push(await readIdle(socket, probe.read_timeout_ms, budget));
    }
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
    socket.destroy();
  }
  const data = Buffer.concat(chunks);
  const response: ProbeResponse = socketResponse(data);
  if (!probeMatches(probe, response)) return undefined;
  const extracted = maskExtracted(extract(probe.extractors, response));
  const location = `${useTls ? "tls" : "tcp"}://${hostPart(s.hostname ?? s.host)}:${s.port}`;
  return {
    template: t,
    service: s,
    location,
    request: [`connect ${location}`, ...(probe.read_banner ? ["(read banner)"] : []), ...sent.map((x) => `> ${x}`)].join("\n"),
    response: evidence(printable(data), t.redact_evidence, extracted),
    extracted,
  };
}

function startTls(socket: net.Socket, servername: string | undefined, timeoutMs: number): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const t = tls.connect({ socket, rejectUnauthorized: false, ...(servername && !net.isIP(servername) ? { servername } : {}) });
    const timer = setTimeout(() => {
      t.destroy();
      reject(Object.assign(new Error("TLS handshake timeout"), { code: "ETIMEDOUT" }));
    }, timeoutMs);
    t.once("secureConnect", () => {
      clearTimeout(timer);
      resolve(t);
    });
    t.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/**
 * Reads until the byte budget is spent, the peer goes quiet for a moment after answering, the
 * timeout passes, or the connection closes. The quiet gap lets multi-packet answers (a Redis
 * INFO reply) arrive whole without waiting out the full timeout.
 */
function readIdle(socket: net.Socket, timeoutMs: number, budget: { left: number }, idleMs = 250): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let idle: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      clearTimeout(idle);
      socket.off("data", onData);
      socket.off("end", done);
      socket.off("close", done);
      socket.off("error", done);
      resolve(Buffer.concat(chunks));
    };
    const onData = (d: Buffer) => {
      const take = d.subarray(0, Math.max(0, budget.left));
      budget.left -= take.length;
      chunks.push(take);
      if (budget.left <= 0) return done();
      clearTimeout(idle);
      idle = setTimeout(done, idleMs);
    };
    const timer = setTimeout(done, timeoutMs);
    if (budget.left <= 0) return done();
    socket.on("data", onData);
    socket.once("end", done);
    socket.once("close", done);
    socket.once("error", done);
  });
}

/** Bytes as readable text: printable ASCII and CR/LF kept, the rest as \xNN. */
export function printable(b: Buffer, max = EVIDENCE_CHARS): string {
  let out = "";
  for (const byte of b) {
    if (out.length >= max) break;
    if ((byte >= 0x20 && byte < 0x7f) || byte === 0x0a || byte === 0x0d || byte === 0x09) out += String.fromCharCode(byte);
    else out += `\\x${byte.toString(16).padStart(2, "0")}`;
  }
  return out;
}

/** Masks secrets in evidence: credentials in URLs always, KEY=value lines when the template asks. */
export function redact(text: string, keyValues: boolean): string {
  let out = text.replace(/(\/\/[^/\s:@]+:)[^@\s/]+@/g, "$1[redacted]@");
  if (keyValues) out = out.replace(/^(\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.-]*\s*[=:]\s*)(\S.*)$/gm, (_m, k: string) => `${k}[redacted]`);
  return out;
}

/** Extracted values keep no credentials embedded in URLs. */
function maskExtracted(x: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, v.map((s) => redact(s, false))]));
}

function evidence(response: string, redactValues: boolean, extracted: Record<string, string[]>): string {
  // With redaction on, an HTTP response keeps its header lines readable; only the body's
  // key=value lines are masked.
  const split = redactValues ? response.indexOf("\r\n\r\n") : -1;
  let out = split > 0 ? redact(response.slice(0, split), false) + redact(response.slice(split), true) : redact(response, redactValues);
  const ex = Object.entries(extracted);
  if (ex.length) out += `\n\n[extracted] ${ex.map(([k, v]) => `${k}: ${v.join(", ")}`).join("; ")}`;
  return out.slice(0, EVIDENCE_CHARS + 512);
}

/** The detection a template hit becomes. */
export function hitToDraft(hit: TemplateHit): DetectionDraft {
  const t = hit.template;
  const extractedNote = Object.entries(hit.extracted)
    .map(([k, v]) => `${k}: ${v.join(", ")}`)
    .join("; ");
  return {
    templateId: t.id,
    title: t.name,
    severity: t.severity,
    cvssScore: t.classification.cvss_score,
    cvssVector: t.classification.cvss_vector,
    cweIds: t.classification.cwe,
    cveIds: t.classification.cve,
    tool: "templates",
    target: hit.service.hostname ?? hit.service.host,
    affectedComponent: hit.location,
    description: extractedNote ? `${t.description.trim()}\n\nObserved: ${extractedNote}.` : t.description.trim(),
    impact: t.impact.trim(),
    remediation: {
      summary: t.remediation.summary.trim(),
      steps: t.remediation.steps,
      codeExample: t.remediation.code_example,
      references: [...new Set([...t.remediation.references, ...t.references])],
    },
    evidence: { request: hit.request, response: hit.response },
    confidence: t.confidence,
  };
}
