import { check } from "../catalogue.js";

/* Handles on the TLS checks; their text is data in services/scanner/checks/tls.yaml. */

export const TLS10 = check("tls-protocol-tls10");
export const TLS11 = check("tls-protocol-tls11");
export const WEAK_CIPHERS = check("tls-weak-ciphers");
/** NULL, anonymous and EXPORT suites: the same finding as WEAK_CIPHERS, rated higher. */
export const BROKEN_CIPHERS = check("tls-broken-ciphers");
export const CERT_EXPIRED = check("tls-cert-expired");
export const CERT_NOT_YET_VALID = check("tls-cert-not-yet-valid");
export const CERT_SELF_SIGNED = check("tls-cert-self-signed");
export const CERT_WRONG_HOST = check("tls-cert-wrong-host");
export const CERT_EXPIRING_SOON = check("tls-cert-expiring-soon");
export const CERT_SHORT_RSA_KEY = check("tls-cert-short-rsa-key");
export const CERT_SHA1_SIGNATURE = check("tls-cert-sha1-signature");
export const NO_TLS13 = check("tls-no-tls13");
export const CHAIN_INCOMPLETE = check("tls-cert-chain-incomplete");
export const NO_OCSP_STAPLING = check("tls-no-ocsp-stapling");
