import { Counter, type Registry } from "prom-client";
import type { AuthObserver } from "./domain/ports.js";

/** Identity's counters, beside the kit's rpc_server_duration_seconds. */
export function authObserver(registry: Registry): AuthObserver {
  const logins = new Counter({
    name: "auth_login_attempts_total",
    help: "Token requests by outcome (success, invalid_credentials, mfa_required, invalid_mfa_code, throttled)",
    labelNames: ["outcome"],
    registers: [registry],
  });
  const tokens = new Counter({
    name: "auth_tokens_issued_total",
    help: "Access tokens signed, by kind (issue, refresh)",
    labelNames: ["kind"],
    registers: [registry],
  });
  const apiKeys = new Counter({
    name: "auth_api_key_verifications_total",
    help: "X-API-Key values resolved, by outcome (valid, invalid)",
    labelNames: ["outcome"],
    registers: [registry],
  });
  return {
    login: (outcome) => logins.inc({ outcome }),
    tokenIssued: (kind) => tokens.inc({ kind }),
    apiKeyVerified: (outcome) => apiKeys.inc({ outcome }),
  };
}
