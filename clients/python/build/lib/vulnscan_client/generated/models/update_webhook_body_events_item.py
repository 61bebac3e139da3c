from enum import StrEnum

class UpdateWebhookBodyEventsItem(StrEnum):
    AUDIT_REQUEST_CREATED = "audit.request_created"
    CONTROL_STATUS_CHANGED = "control.status_changed"
    EVIDENCE_EXPIRING = "evidence.expiring"
    EVIDENCE_UPLOADED = "evidence.uploaded"
    FINDING_ACCEPTANCE_EXPIRED = "finding.acceptance_expired"
    FINDING_ACCEPTANCE_REQUESTED = "finding.acceptance_requested"
    FINDING_RETESTED = "finding.retested"
    FINDING_SLA_BREACHED = "finding.sla_breached"
    FRAMEWORK_SCORE_CHANGED = "framework.score_changed"
    QUARANTINE_THREAT_DETECTED = "quarantine.threat_detected"
    SCAN_COMPLETED = "scan.completed"
    SCAN_CREATED = "scan.created"
    SCAN_FAILED = "scan.failed"
    SCAN_PROGRESS = "scan.progress"
    SCAN_STARTED = "scan.started"
    TARGET_VERIFICATION_EXPIRED = "target.verification_expired"
    USER_LOGIN_FAILED = "user.login_failed"
    USER_MFA_DISABLED = "user.mfa_disabled"
    VULNERABILITY_CRITICAL = "vulnerability.critical"
    VULNERABILITY_FOUND = "vulnerability.found"
    VULNERABILITY_HIGH = "vulnerability.high"
    VULNERABILITY_RESOLVED = "vulnerability.resolved"
    VULNERABILITY_STATUS_CHANGED = "vulnerability.status_changed"

    def __str__(self) -> str:
        return str(self.value)
