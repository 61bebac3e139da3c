import { check } from "../catalogue.js";

/* Handles on the web checks; their text is data in services/scanner/checks/web.yaml. */

export const MISSING_HSTS = check("web-missing-hsts");
export const MISSING_CSP = check("web-missing-csp");
export const MISSING_FRAME_PROTECTION = check("web-missing-clickjacking-protection");
export const MISSING_NOSNIFF = check("web-missing-x-content-type-options");
export const MISSING_REFERRER_POLICY = check("web-missing-referrer-policy");
export const COOKIE_NO_SECURE = check("web-cookie-missing-secure");
export const COOKIE_NO_HTTPONLY = check("web-cookie-missing-httponly");
export const COOKIE_NO_SAMESITE = check("web-cookie-missing-samesite");
export const CORS_REFLECTION = check("web-cors-origin-reflection");
export const CORS_WILDCARD_CREDENTIALS = check("web-cors-wildcard-credentials");
export const DIRECTORY_LISTING = check("web-directory-listing");
export const EXPOSED_GIT = check("web-exposed-git");
export const EXPOSED_ENV = check("web-exposed-env");
export const EXPOSED_BACKUP = check("web-exposed-backup");
export const EXPOSED_CONFIG_BACKUP = check("web-exposed-config-backup");
export const EXPOSED_DS_STORE = check("web-exposed-ds-store");
export const TRACE_ENABLED = check("web-trace-enabled");
export const DANGEROUS_METHODS = check("web-dangerous-methods");
export const NO_HTTPS_REDIRECT = check("web-missing-https-redirect");
