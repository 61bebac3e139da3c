import type { EgressGuard } from "../../net/egress.js";
import { tryExchange } from "../fingerprint/exchange.js";
import type { DetectionDraft, Service } from "../types.js";
import { detection } from "../web/check.js";
import { fetchAuthMethods, PROBE_USER, type AuthMethods } from "./auth-methods.js";
import { PASSWORD_AUTH, TERRAPIN, WEAK_CIPHERS, WEAK_HOSTKEY, WEAK_KEX, WEAK_MACS } from "./checks.js";
import { parseKexInit, terrapinExposure, WEAK, type KexInit } from "./kexinit.js";

const CLIENT_IDENT = "SSH-2.0-vulnscan_1.0\r\n";

/** The server's KEXINIT: our identification line out, its identification and first packet in. */
export async function fetchKexInit(svc: Service, opts: { guard: EgressGuard; signal?: AbortSignal; timeoutMs?: number }): Promise<KexInit | undefined> {
  const answer = await tryExchange(svc.host, svc.port, CLIENT_IDENT, {
    guard: opts.guard,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs ?? 5000,
    maxBytes: 40_000,
    until: (b) => parseKexInit(b) !== undefined,
  });
  return parseKexInit(answer);
}

/** Algorithm findings of one SSH service, one per kind, listing the offending names. */
export function sshFindings(svc: Service, k: KexInit): DetectionDraft[] {
  const target = svc.hostname ?? svc.host;
  const affectedComponent = `tcp://${svc.hostname ?? svc.host}:${svc.port}`;
  const evidence = {
    request: `connect ${affectedComponent}\n> ${CLIENT_IDENT.trim()}\n(read the server's SSH_MSG_KEXINIT; no key exchange, no login)`,
    response: [k.ident, `kex: ${k.kex.join(",")}`, `host key: ${k.hostKey.join(",")}`, `ciphers: ${k.ciphers.join(",")}`, `macs: ${k.macs.join(",")}`].join(
      "\n",
    ),
  };
  const out: DetectionDraft[] = [];
  const terrapin = terrapinExposure(k);
  if (terrapin)
    out.push(detection(TERRAPIN, { target, affectedComponent, evidence, cveIds: ["CVE-2023-48795"], detail: `Affected modes offered: ${terrapin}.` }));
  const lists = [
    [WEAK_KEX, k.kex.filter(WEAK.kex)],
    [WEAK_HOSTKEY, k.hostKey.filter(WEAK.hostKey)],
    [WEAK_CIPHERS, k.ciphers.filter(WEAK.cipher)],
    [WEAK_MACS, k.macs.filter(WEAK.mac)],
  ] as const;
  for (const [check, weak] of lists)
    if (weak.length) out.push(detection(check, { target, affectedComponent, evidence, detail: `Offered: ${weak.join(", ")}.` }));
  return out;
}

/** Password authentication among the methods the server lists after a "none" request. */
export function authFindings(svc: Service, a: AuthMethods): DetectionDraft[] {
  if (!a.methods.includes("password")) return [];
  const affectedComponent = `tcp://${svc.hostname ?? svc.host}:${svc.port}`;
  return [
    detection(PASSWORD_AUTH, {
      target: svc.hostname ?? svc.host,
      affectedComponent,
      detail: `Methods offered: ${a.methods.join(", ")}.`,
      evidence: {
        request: `connect ${affectedComponent}, key exchange, then SSH_MSG_USERAUTH_REQUEST user "${PROBE_USER}" method "none" (no password or key sent)`,
        response: [a.negotiated ? `negotiated: ${a.negotiated}` : undefined, `SSH_MSG_USERAUTH_FAILURE: methods that can continue: ${a.methods.join(",")}`]
          .filter(Boolean)
          .join("\n"),
      },
    }),
  ];
}

export async function analyzeSshService(svc: Service, opts: { guard: EgressGuard; signal?: AbortSignal }): Promise<DetectionDraft[]> {
  const k = await fetchKexInit(svc, opts);
  if (!k) return [];
  const auth = await fetchAuthMethods(svc.host, svc.port, opts);
  return [...sshFindings(svc, k), ...(auth ? authFindings(svc, auth) : [])];
}
