/**
 * The `operationId` of every operation: the names the generated client libraries give their
 * calls (clients/), so they are chosen once here, in the libraries' reading (verb + resource),
 * and never derived from paths. A route without one fails the OpenAPI test; renaming one is a
 * breaking change for the libraries (docs/api-changes.md).
 */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  "GET /api/health": "getHealth",
  "POST /api/v1/auth/token": "createToken",
  "POST /api/v1/auth/refresh": "refreshToken",
  "GET /api/v1/auth/sessions": "listSessions",
  "DELETE /api/v1/auth/sessions/{session_id}": "revokeSession",
  "POST /api/v1/auth/logout-all": "logoutAll",
  "POST /api/v1/auth/mfa/setup": "setupMfa",
  "POST /api/v1/auth/mfa/enable": "enableMfa",
  "POST /api/v1/auth/mfa/disable": "disableMfa",
  "POST /api/v1/auth/mfa/recovery-codes": "regenerateRecoveryCodes",
  "GET /api/v1/auth/me": "getMe",
  "POST /api/v1/auth/api-keys": "createApiKey",
  "GET /api/v1/auth/api-keys": "listApiKeys",
  "DELETE /api/v1/auth/api-keys/{api_key_id}": "revokeApiKey",
  "POST /api/v1/auth/docs-cookie": "createDocsCookie",
  "POST /api/v1/scans": "createScan",
  "GET /api/v1/scans": "listScans",
  "GET /api/v1/scans/quota": "getScanQuota",
  "POST /api/v1/scans/schedules": "createSchedule",
  "GET /api/v1/scans/schedules": "listSchedules",
  "DELETE /api/v1/scans/schedules/{schedule_id}": "deleteSchedule",
  "GET /api/v1/scans/{scan_id}": "getScan",
  "DELETE /api/v1/scans/{scan_id}": "cancelScan",
  "GET /api/v1/scans/{scan_id}/findings": "listScanFindings",
  "GET /api/v1/scans/{scan_id}/diff": "diffScan",
  "GET /api/v1/scans/{scan_id}/events": "streamScanEvents",
  "POST /api/v1/targets": "createTarget",
  "GET /api/v1/targets": "listTargets",
  "GET /api/v1/targets/{target_id}": "getTarget",
  "DELETE /api/v1/targets/{target_id}": "deleteTarget",
  "POST /api/v1/targets/{target_id}/verify": "verifyTarget",
  "GET /api/v1/findings": "listFindings",
  "GET /api/v1/findings/stats": "getFindingStats",
  "GET /api/v1/findings/export": "exportFindings",
  "POST /api/v1/findings/bulk": "bulkUpdateFindings",
  "GET /api/v1/findings/{finding_id}": "getFinding",
  "PATCH /api/v1/findings/{finding_id}": "updateFinding",
  "POST /api/v1/findings/{finding_id}/comments": "addFindingComment",
  "GET /api/v1/findings/{finding_id}/ai-analysis": "getFindingAiAnalysis",
  "POST /api/v1/findings/{finding_id}/retest": "retestFinding",
  "GET /api/v1/findings/{finding_id}/retests": "listFindingRetests",
  "POST /api/v1/findings/{finding_id}/acceptance/decision": "decideFindingAcceptance",
  "GET /api/v1/findings/policy": "getFindingsPolicy",
  "PUT /api/v1/findings/policy": "updateFindingsPolicy",
  "POST /api/v1/webhooks": "createWebhook",
  "GET /api/v1/webhooks": "listWebhooks",
  "GET /api/v1/webhooks/{webhook_id}": "getWebhook",
  "PATCH /api/v1/webhooks/{webhook_id}": "updateWebhook",
  "DELETE /api/v1/webhooks/{webhook_id}": "deleteWebhook",
  "POST /api/v1/webhooks/{webhook_id}/test": "testWebhook",
  "GET /api/v1/webhooks/{webhook_id}/deliveries": "listWebhookDeliveries",
  "POST /api/v1/webhooks/{webhook_id}/deliveries/replay": "replayWebhookDeliveries",
  "POST /api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry": "retryWebhookDelivery",
  "POST /api/v1/controls/{control_id}/evidence": "uploadEvidence",
  "GET /api/v1/evidence": "listEvidence",
  "GET /api/v1/evidence/{evidence_id}": "getEvidence",
  "DELETE /api/v1/evidence/{evidence_id}": "deleteEvidence",
  "GET /api/v1/evidence/{evidence_id}/download": "downloadEvidence",
  "GET /api/v1/controls": "listControls",
  "GET /api/v1/controls/{control_id}": "getControl",
  "PATCH /api/v1/controls/{control_id}": "updateControl",
  "GET /api/v1/frameworks": "listFrameworks",
  "POST /api/v1/audit-requests": "createAuditRequest",
  "GET /api/v1/audit-requests": "listAuditRequests",
  "GET /api/v1/audit-requests/{audit_request_id}": "getAuditRequest",
  "POST /api/v1/audit-requests/{audit_request_id}/answer": "answerAuditRequest",
};

const METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options"]);

/** The document with every listed operation named (in place; an operation not listed keeps none). */
export function nameOperations<D extends { paths?: object }>(doc: D): D {
  for (const [path, item] of Object.entries(doc.paths ?? {}) as [string, Record<string, unknown>][]) {
    for (const [method, op] of Object.entries(item ?? {})) {
      const id = OPERATION_IDS[`${method.toUpperCase()} ${path}`];
      if (METHODS.has(method) && id && op && typeof op === "object") (op as { operationId?: string }).operationId = id;
    }
  }
  return doc;
}
