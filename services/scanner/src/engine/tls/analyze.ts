import type { X509Certificate } from "node:crypto";
import type tls from "node:tls";
import type { EgressGuard } from "../../net/egress.js";
import { connectTls } from "../../net/tls.js";
import type { DetectionDraft, Service } from "../types.js";
import { detection, type CheckDef } from "../web/check.js";
import {
  BROKEN_CIPHERS,
  CERT_EXPIRED,
  CERT_EXPIRING_SOON,
  CERT_NOT_YET_VALID,
  CERT_SELF_SIGNED,
  CERT_SHA1_SIGNATURE,
  CERT_SHORT_RSA_KEY,
  CERT_WRONG_HOST,
  CHAIN_INCOMPLETE,
  NO_OCSP_STAPLING,
  NO_TLS13,
  TLS10,
  TLS11,
  WEAK_CIPHERS,
} from "./checks.js";
import { chainLength, missingIssuerOf, ocspUrls } from "./chain.js";
import { WEAK_SUITES, acceptedSuites } from "./client-hello.js";

const DAY = 86_400_000;
const SOON_DAYS = 30;

export interface TlsContext {
  guard: EgressGuard;
  signal?: AbortSignal;
  timeoutMs?: number;
  now?: Date;
}

const certSummary = (x: X509Certificate) =>
  [
    `subject: ${x.subject.replace(/\n/g, ", ")}`,
    `issuer: ${x.issuer.replace(/\n/g, ", ")}`,
    `notBefore: ${x.validFrom}`,
    `notAfter: ${x.validTo}`,
    `subjectAltName: ${x.subjectAltName ?? "(none)"}`,
    `sha256: ${x.fingerprint256}`,
  ].join("\n");

async function handshake(svc: Service, tc: TlsContext, extra: Partial<{ minVersion: tls.SecureVersion; maxVersion: tls.SecureVersion; ciphers: string }>) {
  try {
    // Every handshake asks for a stapled OCSP response: a server staples (or not) the same way each time.
    let staple: Buffer | null = null;
    const s = await connectTls(svc.host, svc.port, {
      guard: tc.guard,
      timeoutMs: tc.timeoutMs ?? 5000,
      signal: tc.signal,
      servername: svc.hostname,
      onOcspResponse: (r) => (staple = r),
      ...extra,
    });
    // The detailed chain first: after getPeerX509Certificate(), Node 20 returns {} for it.
    const chain = s.getPeerCertificate(true);
    const info = {
      protocol: s.getProtocol() ?? "?",
      cipher: s.getCipher()?.name ?? "?",
      cert: s.getPeerX509Certificate(),
      chain,
      staple: staple as Buffer | null,
    };
    s.destroy();
    return info;
  } catch {
    return undefined;
  }
}

/** DER of the AlgorithmIdentifier OIDs sha1WithRSAEncryption, ecdsa-with-SHA1 and dsa-with-sha1. */
const SHA1_SIGNATURE_OIDS = ["06092a864886f70d010105", "06072a8648ce3d0401", "06072a8648ce380403"].map((h) => Buffer.from(h, "hex"));

/** Certificate checks on what the server presents for the scanned name (SNI). */
function certificateFindings(svc: Service, x: X509Certificate, now: Date): CheckDef[] {
  const out: CheckDef[] = [];
  const from = new Date(x.validFrom);
  const to = new Date(x.validTo);
  if (to < now) out.push(CERT_EXPIRED);
  else if (from > now) out.push(CERT_NOT_YET_VALID);
  else if (to.getTime() - now.getTime() < SOON_DAYS * DAY) out.push(CERT_EXPIRING_SOON);
  // Self-signed: issuer equals subject and its own key verifies the signature.
  if (x.checkIssued(x) && x.verify(x.publicKey)) out.push(CERT_SELF_SIGNED);
  // The name can only be judged when the scan target was a name (an IP target has no expected name).
  if (svc.hostname && !x.checkHost(svc.hostname)) out.push(CERT_WRONG_HOST);
  const key = x.publicKey.asymmetricKeyDetails;
  if (x.publicKey.asymmetricKeyType === "rsa" && key?.modulusLength !== undefined && key.modulusLength < 2048) out.push(CERT_SHORT_RSA_KEY);
  // The signature algorithm is named in the certificate (tbs and outer AlgorithmIdentifier).
  if (SHA1_SIGNATURE_OIDS.some((oid) => x.raw.includes(oid))) out.push(CERT_SHA1_SIGNATURE);
  return out;
}

/**
 * The chain the server sends: an end-entity certificate whose issuer is neither sent nor a
 * trusted root (incomplete chain), and no stapled OCSP response although the certificate names
 * an OCSP responder (without one there is nothing to staple, and no finding).
 */
function chainFindings(
  hs: { cert: X509Certificate; chain: tls.DetailedPeerCertificate; staple: Buffer | null; protocol: string },
  at: { target: string; affectedComponent: string; request: string },
): DetectionDraft[] {
  const out: DetectionDraft[] = [];
  const missing = missingIssuerOf(hs.chain);
  const sent = `certificates in the chain as received (plus a trusted root, if any): ${chainLength(hs.chain)}`;
  if (missing)
    out.push(
      detection(CHAIN_INCOMPLETE, {
        ...at,
        detail: `The issuer of ${missing.subject.replace(/\n/g, ", ")} (${missing.issuer.replace(/\n/g, ", ")}) was not sent.`,
        evidence: { request: at.request, response: `${hs.protocol}\n${sent}\n${certSummary(missing)}` },
      }),
    );
  const urls = ocspUrls(hs.cert);
  if (urls.length && !hs.staple?.length)
    out.push(
      detection(NO_OCSP_STAPLING, {
        ...at,
        detail: `The certificate names the OCSP responder ${urls.join(", ")}.`,
        evidence: {
          request: `${at.request}, with the status_request extension (asking for a stapled OCSP response)`,
          response: `${hs.protocol}: no CertificateStatus (no OCSP response stapled)\nAuthority Information Access: ${hs.cert.infoAccess?.trim()}`,
        },
      }),
    );
  return out;
}

/**
 * TLS checks on one TLS service: the certificate (validity dates, self-signed, host name),
 * protocol versions TLS 1.0 and 1.1 (a real handshake each, offered with SECLEVEL=0 so this
 * OpenSSL will speak them), and weak cipher suites (raw ClientHellos, see client-hello.ts).
 */
export async function analyzeTlsService(svc: Service, tc: TlsContext): Promise<DetectionDraft[]> {
  const out: DetectionDraft[] = [];
  const target = svc.hostname ?? svc.host;
  const component = `${target}:${svc.port}`;
  const now = tc.now ?? new Date();
  const req = `TLS ClientHello to ${svc.host}:${svc.port}${svc.hostname ? ` (SNI ${svc.hostname})` : ""}`;

  const main = await handshake(svc, tc, { minVersion: "TLSv1", ciphers: "DEFAULT@SECLEVEL=0" });
  if (main?.cert) {
    for (const check of certificateFindings(svc, main.cert, now)) {
      const days = Math.round((new Date(main.cert.validTo).getTime() - now.getTime()) / DAY);
      out.push(
        detection(check, {
          target,
          affectedComponent: component,
          detail:
            check === CERT_EXPIRING_SOON
              ? `It expires in ${days} days.`
              : check === CERT_WRONG_HOST
                ? `Scanned name: ${svc.hostname}.`
                : check === CERT_SHORT_RSA_KEY
                  ? `Key size: ${main.cert.publicKey.asymmetricKeyDetails?.modulusLength} bits.`
                  : undefined,
          evidence: { request: req, response: `${main.protocol} ${main.cipher}\n${certSummary(main.cert)}` },
        }),
      );
    }
  }

  if (main?.cert && main.chain.raw) out.push(...chainFindings({ ...main, cert: main.cert }, { target, affectedComponent: component, request: req }));

  for (const [version, check] of [
    ["TLSv1", TLS10],
    ["TLSv1.1", TLS11],
  ] as const) {
    const hs = await handshake(svc, tc, { minVersion: version, maxVersion: version, ciphers: "DEFAULT@SECLEVEL=0" });
    if (hs?.protocol === version) {
      out.push(
        detection(check, {
          target,
          affectedComponent: component,
          detail: `Negotiated cipher: ${hs.cipher}.`,
          evidence: { request: `${req}, offering only ${version} (all suites, SECLEVEL=0)`, response: `handshake completed: ${hs.protocol} ${hs.cipher}` },
        }),
      );
    }
  }

  if (main) {
    const tls13 = await handshake(svc, tc, { minVersion: "TLSv1.3", maxVersion: "TLSv1.3" });
    if (tls13?.protocol !== "TLSv1.3")
      out.push(
        detection(NO_TLS13, {
          target,
          affectedComponent: component,
          evidence: { request: `${req}, offering only TLSv1.3`, response: `no TLS 1.3 handshake; best protocol otherwise: ${main.protocol}` },
        }),
      );
  }

  const { accepted, transcript } = await acceptedSuites(svc.host, svc.port, WEAK_SUITES, {
    guard: tc.guard,
    timeoutMs: tc.timeoutMs ?? 5000,
    servername: svc.hostname,
    signal: tc.signal,
  });
  if (accepted.length) {
    const broken = accepted.some((s) => s.kind === "NULL" || s.kind === "EXPORT" || s.kind === "anonymous");
    out.push(
      detection(broken ? BROKEN_CIPHERS : WEAK_CIPHERS, {
        target,
        affectedComponent: component,
        detail: `Accepted: ${accepted.map((s) => `${s.name} (${s.kind})`).join(", ")}.`,
        evidence: { request: `${req}: ClientHellos offering only weak suites`, response: transcript.join("\n") },
      }),
    );
  }
  return out;
}
