import { X509Certificate } from "node:crypto";
import type tls from "node:tls";

/*
 * What the certificate chain a server sends says about completeness and revocation, read from
 * Node's detailed peer certificate: Node links each certificate to its issuer among those the
 * server sent, and the top one to an issuer from the local trust store when it has one (a
 * self-signed certificate links to itself).
 */

/**
 * The certificate whose issuer is missing when the chain is incomplete: the top of what was sent
 * is an end-entity certificate (not a CA) that is not self-signed and whose issuer neither the
 * server sent nor a trusted root provides. A top that is itself a CA (an intermediate whose root
 * is not sent) is the normal case and not reported: roots are never required in the chain.
 */
export function missingIssuerOf(leaf: tls.DetailedPeerCertificate): X509Certificate | undefined {
  const seen = new Set<tls.DetailedPeerCertificate>();
  let top = leaf;
  while (top.issuerCertificate && top.issuerCertificate !== top && !seen.has(top)) {
    seen.add(top);
    top = top.issuerCertificate;
  }
  if (top.issuerCertificate) return undefined; // self-signed, or linked to a trusted root
  const x = new X509Certificate(top.raw);
  if (x.ca || x.checkIssued(x)) return undefined;
  return x;
}

/** How many certificates the chain holds as Node linked it (those sent plus a trusted root). */
export function chainLength(leaf: tls.DetailedPeerCertificate): number {
  const seen = new Set<tls.DetailedPeerCertificate>();
  for (let at: tls.DetailedPeerCertificate | undefined = leaf; at && !seen.has(at); at = at.issuerCertificate) seen.add(at);
  return seen.size;
}

/** The OCSP responder URLs in the certificate's Authority Information Access (none: nothing to staple). */
export function ocspUrls(x: X509Certificate): string[] {
  return [...(x.infoAccess ?? "").matchAll(/^OCSP - URI:(.+)$/gm)].map((m) => m[1]!.trim());
}
