import { counter } from "@vulnscan/kit/metrics";
import type { Registry } from "prom-client";
import type { AuthObserver } from "./domain/ports.js";

/** Identity's counters, beside the kit's rpc_server_duration_seconds. */
export function authObserver(registry: Registry): AuthObserver {
  const logins = counter(
    registry,
    "auth_login_attempts_total",
    "Token requests by outcome (success, invalid_credentials, mfa_required, invalid_mfa_code, throttled)",
    ["outcome"],
  );
  const tokens = counter(
    registry,
    "auth_tokens_issued_total",
    "Access tokens signed, by kind (issue, refresh); refresh_reuse counts refreshes with a replaced token, refused and their session revoked",
    ["kind"],
  );
  const apiKeys = counter(registry, "auth_api_key_verifications_total", "X-API-Key values resolved, by outcome (valid, invalid)", ["outcome"]);
  return {
    login: (outcome) => logins.inc({ outcome }),
    tokenIssued: (kind) => tokens.inc({ kind }),
    apiKeyVerified: (outcome) => apiKeys.inc({ outcome }),
  };
}
