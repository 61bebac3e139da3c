""" Contains all the data models used in inputs/outputs """

from .add_finding_comment_body import AddFindingCommentBody
from .add_finding_comment_response_201 import AddFindingCommentResponse201
from .answer_audit_request_body import AnswerAuditRequestBody
from .answer_audit_request_body_status import AnswerAuditRequestBodyStatus
from .answer_audit_request_response_200 import AnswerAuditRequestResponse200
from .answer_audit_request_response_200_framework import AnswerAuditRequestResponse200Framework
from .answer_audit_request_response_200_status import AnswerAuditRequestResponse200Status
from .bulk_update_findings_body import BulkUpdateFindingsBody
from .bulk_update_findings_body_update import BulkUpdateFindingsBodyUpdate
from .bulk_update_findings_body_update_acceptance import BulkUpdateFindingsBodyUpdateAcceptance
from .bulk_update_findings_body_update_status import BulkUpdateFindingsBodyUpdateStatus
from .bulk_update_findings_response_200 import BulkUpdateFindingsResponse200
from .bulk_update_findings_response_200_failed_item import BulkUpdateFindingsResponse200FailedItem
from .cancel_scan_response_200 import CancelScanResponse200
from .cancel_scan_response_200_status import CancelScanResponse200Status
from .create_api_key_body import CreateApiKeyBody
from .create_api_key_body_permissions_item import CreateApiKeyBodyPermissionsItem
from .create_api_key_response_201 import CreateApiKeyResponse201
from .create_api_key_response_201_permissions_item import CreateApiKeyResponse201PermissionsItem
from .create_audit_request_body import CreateAuditRequestBody
from .create_audit_request_body_framework import CreateAuditRequestBodyFramework
from .create_audit_request_response_201 import CreateAuditRequestResponse201
from .create_audit_request_response_201_framework import CreateAuditRequestResponse201Framework
from .create_audit_request_response_201_status import CreateAuditRequestResponse201Status
from .create_scan_body import CreateScanBody
from .create_scan_body_frameworks_item import CreateScanBodyFrameworksItem
from .create_scan_body_scan_type import CreateScanBodyScanType
from .create_scan_response_201 import CreateScanResponse201
from .create_scan_response_201_scan_type import CreateScanResponse201ScanType
from .create_scan_response_201_status import CreateScanResponse201Status
from .create_schedule_body import CreateScheduleBody
from .create_schedule_body_frameworks_item import CreateScheduleBodyFrameworksItem
from .create_schedule_body_frequency import CreateScheduleBodyFrequency
from .create_schedule_body_scan_type import CreateScheduleBodyScanType
from .create_schedule_response_201 import CreateScheduleResponse201
from .create_schedule_response_201_frequency import CreateScheduleResponse201Frequency
from .create_schedule_response_201_scan_type import CreateScheduleResponse201ScanType
from .create_target_body import CreateTargetBody
from .create_target_response_201 import CreateTargetResponse201
from .create_target_response_201_attempts_item import CreateTargetResponse201AttemptsItem
from .create_target_response_201_attempts_item_method import CreateTargetResponse201AttemptsItemMethod
from .create_target_response_201_attempts_item_source import CreateTargetResponse201AttemptsItemSource
from .create_target_response_201_kind import CreateTargetResponse201Kind
from .create_target_response_201_verification import CreateTargetResponse201Verification
from .create_target_response_201_verification_challenges_item import CreateTargetResponse201VerificationChallengesItem
from .create_target_response_201_verification_challenges_item_method import CreateTargetResponse201VerificationChallengesItemMethod
from .create_target_response_201_verification_method import CreateTargetResponse201VerificationMethod
from .create_target_response_201_verification_status import CreateTargetResponse201VerificationStatus
from .create_token_body import CreateTokenBody
from .create_token_body_grant_type import CreateTokenBodyGrantType
from .create_token_response_200 import CreateTokenResponse200
from .create_token_response_200_token_type import CreateTokenResponse200TokenType
from .create_webhook_body import CreateWebhookBody
from .create_webhook_body_events_item import CreateWebhookBodyEventsItem
from .create_webhook_response_201 import CreateWebhookResponse201
from .decide_finding_acceptance_body import DecideFindingAcceptanceBody
from .decide_finding_acceptance_body_decision import DecideFindingAcceptanceBodyDecision
from .decide_finding_acceptance_response_200 import DecideFindingAcceptanceResponse200
from .decide_finding_acceptance_response_200_acceptance_type_0 import DecideFindingAcceptanceResponse200AcceptanceType0
from .decide_finding_acceptance_response_200_acceptance_type_0_state import DecideFindingAcceptanceResponse200AcceptanceType0State
from .decide_finding_acceptance_response_200_comments_item import DecideFindingAcceptanceResponse200CommentsItem
from .decide_finding_acceptance_response_200_confidence_type_1 import DecideFindingAcceptanceResponse200ConfidenceType1
from .decide_finding_acceptance_response_200_confidence_type_2_type_1 import DecideFindingAcceptanceResponse200ConfidenceType2Type1
from .decide_finding_acceptance_response_200_confidence_type_3_type_1 import DecideFindingAcceptanceResponse200ConfidenceType3Type1
from .decide_finding_acceptance_response_200_due_date_source_type_1 import DecideFindingAcceptanceResponse200DueDateSourceType1
from .decide_finding_acceptance_response_200_due_date_source_type_2_type_1 import DecideFindingAcceptanceResponse200DueDateSourceType2Type1
from .decide_finding_acceptance_response_200_due_date_source_type_3_type_1 import DecideFindingAcceptanceResponse200DueDateSourceType3Type1
from .decide_finding_acceptance_response_200_evidence import DecideFindingAcceptanceResponse200Evidence
from .decide_finding_acceptance_response_200_frameworks_item import DecideFindingAcceptanceResponse200FrameworksItem
from .decide_finding_acceptance_response_200_history_item import DecideFindingAcceptanceResponse200HistoryItem
from .decide_finding_acceptance_response_200_priority_type_1 import DecideFindingAcceptanceResponse200PriorityType1
from .decide_finding_acceptance_response_200_priority_type_2_type_1 import DecideFindingAcceptanceResponse200PriorityType2Type1
from .decide_finding_acceptance_response_200_priority_type_3_type_1 import DecideFindingAcceptanceResponse200PriorityType3Type1
from .decide_finding_acceptance_response_200_remediation import DecideFindingAcceptanceResponse200Remediation
from .decide_finding_acceptance_response_200_resolution_type_1 import DecideFindingAcceptanceResponse200ResolutionType1
from .decide_finding_acceptance_response_200_resolution_type_2_type_1 import DecideFindingAcceptanceResponse200ResolutionType2Type1
from .decide_finding_acceptance_response_200_resolution_type_3_type_1 import DecideFindingAcceptanceResponse200ResolutionType3Type1
from .decide_finding_acceptance_response_200_severity import DecideFindingAcceptanceResponse200Severity
from .decide_finding_acceptance_response_200_sla_state_type_1 import DecideFindingAcceptanceResponse200SlaStateType1
from .decide_finding_acceptance_response_200_sla_state_type_2_type_1 import DecideFindingAcceptanceResponse200SlaStateType2Type1
from .decide_finding_acceptance_response_200_sla_state_type_3_type_1 import DecideFindingAcceptanceResponse200SlaStateType3Type1
from .decide_finding_acceptance_response_200_status import DecideFindingAcceptanceResponse200Status
from .delete_schedule_response_200 import DeleteScheduleResponse200
from .delete_schedule_response_200_status import DeleteScheduleResponse200Status
from .delete_target_response_200 import DeleteTargetResponse200
from .delete_target_response_200_status import DeleteTargetResponse200Status
from .disable_mfa_body import DisableMfaBody
from .disable_mfa_response_200 import DisableMfaResponse200
from .enable_mfa_body import EnableMfaBody
from .enable_mfa_response_200 import EnableMfaResponse200
from .error_body import ErrorBody
from .error_body_errors_item import ErrorBodyErrorsItem
from .export_findings_confidence import ExportFindingsConfidence
from .export_findings_format import ExportFindingsFormat
from .export_findings_order import ExportFindingsOrder
from .export_findings_severity import ExportFindingsSeverity
from .export_findings_sla_state import ExportFindingsSlaState
from .export_findings_sort import ExportFindingsSort
from .export_findings_status import ExportFindingsStatus
from .get_audit_request_response_200 import GetAuditRequestResponse200
from .get_audit_request_response_200_framework import GetAuditRequestResponse200Framework
from .get_audit_request_response_200_status import GetAuditRequestResponse200Status
from .get_control_response_200 import GetControlResponse200
from .get_control_response_200_framework_refs_item import GetControlResponse200FrameworkRefsItem
from .get_control_response_200_set_status import GetControlResponse200SetStatus
from .get_control_response_200_status import GetControlResponse200Status
from .get_evidence_response_200 import GetEvidenceResponse200
from .get_evidence_response_200_source import GetEvidenceResponse200Source
from .get_evidence_response_200_status import GetEvidenceResponse200Status
from .get_finding_ai_analysis_response_200 import GetFindingAiAnalysisResponse200
from .get_finding_ai_analysis_response_200_ai_analysis import GetFindingAiAnalysisResponse200AiAnalysis
from .get_finding_ai_analysis_response_200_ai_analysis_remediation_priority import GetFindingAiAnalysisResponse200AiAnalysisRemediationPriority
from .get_finding_ai_analysis_response_200_ai_analysis_source import GetFindingAiAnalysisResponse200AiAnalysisSource
from .get_finding_response_200 import GetFindingResponse200
from .get_finding_response_200_acceptance_type_0 import GetFindingResponse200AcceptanceType0
from .get_finding_response_200_acceptance_type_0_state import GetFindingResponse200AcceptanceType0State
from .get_finding_response_200_comments_item import GetFindingResponse200CommentsItem
from .get_finding_response_200_confidence_type_1 import GetFindingResponse200ConfidenceType1
from .get_finding_response_200_confidence_type_2_type_1 import GetFindingResponse200ConfidenceType2Type1
from .get_finding_response_200_confidence_type_3_type_1 import GetFindingResponse200ConfidenceType3Type1
from .get_finding_response_200_due_date_source_type_1 import GetFindingResponse200DueDateSourceType1
from .get_finding_response_200_due_date_source_type_2_type_1 import GetFindingResponse200DueDateSourceType2Type1
from .get_finding_response_200_due_date_source_type_3_type_1 import GetFindingResponse200DueDateSourceType3Type1
from .get_finding_response_200_evidence import GetFindingResponse200Evidence
from .get_finding_response_200_frameworks_item import GetFindingResponse200FrameworksItem
from .get_finding_response_200_history_item import GetFindingResponse200HistoryItem
from .get_finding_response_200_priority_type_1 import GetFindingResponse200PriorityType1
from .get_finding_response_200_priority_type_2_type_1 import GetFindingResponse200PriorityType2Type1
from .get_finding_response_200_priority_type_3_type_1 import GetFindingResponse200PriorityType3Type1
from .get_finding_response_200_remediation import GetFindingResponse200Remediation
from .get_finding_response_200_resolution_type_1 import GetFindingResponse200ResolutionType1
from .get_finding_response_200_resolution_type_2_type_1 import GetFindingResponse200ResolutionType2Type1
from .get_finding_response_200_resolution_type_3_type_1 import GetFindingResponse200ResolutionType3Type1
from .get_finding_response_200_severity import GetFindingResponse200Severity
from .get_finding_response_200_sla_state_type_1 import GetFindingResponse200SlaStateType1
from .get_finding_response_200_sla_state_type_2_type_1 import GetFindingResponse200SlaStateType2Type1
from .get_finding_response_200_sla_state_type_3_type_1 import GetFindingResponse200SlaStateType3Type1
from .get_finding_response_200_status import GetFindingResponse200Status
from .get_finding_stats_response_200 import GetFindingStatsResponse200
from .get_finding_stats_response_200_by_severity import GetFindingStatsResponse200BySeverity
from .get_finding_stats_response_200_by_status import GetFindingStatsResponse200ByStatus
from .get_finding_stats_response_200_by_tool import GetFindingStatsResponse200ByTool
from .get_finding_stats_response_200_sla import GetFindingStatsResponse200Sla
from .get_finding_stats_response_200_trends import GetFindingStatsResponse200Trends
from .get_findings_policy_response_200 import GetFindingsPolicyResponse200
from .get_findings_policy_response_200_sla_days import GetFindingsPolicyResponse200SlaDays
from .get_health_response_200 import GetHealthResponse200
from .get_health_response_200_services import GetHealthResponse200Services
from .get_health_response_200_services_additional_property import GetHealthResponse200ServicesAdditionalProperty
from .get_health_response_200_status import GetHealthResponse200Status
from .get_health_response_503 import GetHealthResponse503
from .get_health_response_503_services import GetHealthResponse503Services
from .get_health_response_503_services_additional_property import GetHealthResponse503ServicesAdditionalProperty
from .get_health_response_503_status import GetHealthResponse503Status
from .get_scan_quota_response_200 import GetScanQuotaResponse200
from .get_scan_quota_response_200_plan import GetScanQuotaResponse200Plan
from .get_scan_response_200 import GetScanResponse200
from .get_scan_response_200_phases_completed_item import GetScanResponse200PhasesCompletedItem
from .get_scan_response_200_phases_remaining_item import GetScanResponse200PhasesRemainingItem
from .get_scan_response_200_scan_type import GetScanResponse200ScanType
from .get_scan_response_200_status import GetScanResponse200Status
from .get_target_response_200 import GetTargetResponse200
from .get_target_response_200_attempts_item import GetTargetResponse200AttemptsItem
from .get_target_response_200_attempts_item_method import GetTargetResponse200AttemptsItemMethod
from .get_target_response_200_attempts_item_source import GetTargetResponse200AttemptsItemSource
from .get_target_response_200_kind import GetTargetResponse200Kind
from .get_target_response_200_verification import GetTargetResponse200Verification
from .get_target_response_200_verification_challenges_item import GetTargetResponse200VerificationChallengesItem
from .get_target_response_200_verification_challenges_item_method import GetTargetResponse200VerificationChallengesItemMethod
from .get_target_response_200_verification_method import GetTargetResponse200VerificationMethod
from .get_target_response_200_verification_status import GetTargetResponse200VerificationStatus
from .get_webhook_response_200 import GetWebhookResponse200
from .list_api_keys_response_200 import ListApiKeysResponse200
from .list_api_keys_response_200_items_item import ListApiKeysResponse200ItemsItem
from .list_api_keys_response_200_items_item_permissions_item import ListApiKeysResponse200ItemsItemPermissionsItem
from .list_audit_requests_response_200 import ListAuditRequestsResponse200
from .list_audit_requests_response_200_items_item import ListAuditRequestsResponse200ItemsItem
from .list_audit_requests_response_200_items_item_framework import ListAuditRequestsResponse200ItemsItemFramework
from .list_audit_requests_response_200_items_item_status import ListAuditRequestsResponse200ItemsItemStatus
from .list_audit_requests_status import ListAuditRequestsStatus
from .list_controls_framework import ListControlsFramework
from .list_controls_response_200 import ListControlsResponse200
from .list_controls_response_200_items_item import ListControlsResponse200ItemsItem
from .list_controls_response_200_items_item_framework_refs_item import ListControlsResponse200ItemsItemFrameworkRefsItem
from .list_controls_response_200_items_item_status import ListControlsResponse200ItemsItemStatus
from .list_controls_status import ListControlsStatus
from .list_evidence_response_200 import ListEvidenceResponse200
from .list_evidence_response_200_items_item import ListEvidenceResponse200ItemsItem
from .list_evidence_response_200_items_item_source import ListEvidenceResponse200ItemsItemSource
from .list_evidence_response_200_items_item_status import ListEvidenceResponse200ItemsItemStatus
from .list_finding_retests_response_200 import ListFindingRetestsResponse200
from .list_finding_retests_response_200_items_item import ListFindingRetestsResponse200ItemsItem
from .list_finding_retests_response_200_items_item_check import ListFindingRetestsResponse200ItemsItemCheck
from .list_finding_retests_response_200_items_item_evidence import ListFindingRetestsResponse200ItemsItemEvidence
from .list_finding_retests_response_200_items_item_reason_type_1 import ListFindingRetestsResponse200ItemsItemReasonType1
from .list_finding_retests_response_200_items_item_reason_type_2_type_1 import ListFindingRetestsResponse200ItemsItemReasonType2Type1
from .list_finding_retests_response_200_items_item_reason_type_3_type_1 import ListFindingRetestsResponse200ItemsItemReasonType3Type1
from .list_finding_retests_response_200_items_item_status import ListFindingRetestsResponse200ItemsItemStatus
from .list_finding_retests_response_200_items_item_verdict_type_1 import ListFindingRetestsResponse200ItemsItemVerdictType1
from .list_finding_retests_response_200_items_item_verdict_type_2_type_1 import ListFindingRetestsResponse200ItemsItemVerdictType2Type1
from .list_finding_retests_response_200_items_item_verdict_type_3_type_1 import ListFindingRetestsResponse200ItemsItemVerdictType3Type1
from .list_findings_confidence import ListFindingsConfidence
from .list_findings_order import ListFindingsOrder
from .list_findings_response_200 import ListFindingsResponse200
from .list_findings_response_200_items_item import ListFindingsResponse200ItemsItem
from .list_findings_response_200_items_item_confidence_type_1 import ListFindingsResponse200ItemsItemConfidenceType1
from .list_findings_response_200_items_item_confidence_type_2_type_1 import ListFindingsResponse200ItemsItemConfidenceType2Type1
from .list_findings_response_200_items_item_confidence_type_3_type_1 import ListFindingsResponse200ItemsItemConfidenceType3Type1
from .list_findings_response_200_items_item_severity import ListFindingsResponse200ItemsItemSeverity
from .list_findings_response_200_items_item_sla_state_type_1 import ListFindingsResponse200ItemsItemSlaStateType1
from .list_findings_response_200_items_item_sla_state_type_2_type_1 import ListFindingsResponse200ItemsItemSlaStateType2Type1
from .list_findings_response_200_items_item_sla_state_type_3_type_1 import ListFindingsResponse200ItemsItemSlaStateType3Type1
from .list_findings_response_200_items_item_status import ListFindingsResponse200ItemsItemStatus
from .list_findings_severity import ListFindingsSeverity
from .list_findings_sla_state import ListFindingsSlaState
from .list_findings_sort import ListFindingsSort
from .list_findings_status import ListFindingsStatus
from .list_frameworks_response_200 import ListFrameworksResponse200
from .list_frameworks_response_200_items_item import ListFrameworksResponse200ItemsItem
from .list_frameworks_response_200_items_item_id import ListFrameworksResponse200ItemsItemId
from .list_scan_findings_response_200 import ListScanFindingsResponse200
from .list_scan_findings_response_200_items_item import ListScanFindingsResponse200ItemsItem
from .list_scan_findings_response_200_items_item_severity import ListScanFindingsResponse200ItemsItemSeverity
from .list_scan_findings_response_200_items_item_status import ListScanFindingsResponse200ItemsItemStatus
from .list_scan_findings_severity import ListScanFindingsSeverity
from .list_scan_findings_status import ListScanFindingsStatus
from .list_scans_response_200 import ListScansResponse200
from .list_scans_response_200_items_item import ListScansResponse200ItemsItem
from .list_scans_response_200_items_item_scan_type import ListScansResponse200ItemsItemScanType
from .list_scans_response_200_items_item_status import ListScansResponse200ItemsItemStatus
from .list_scans_status import ListScansStatus
from .list_schedules_response_200 import ListSchedulesResponse200
from .list_schedules_response_200_items_item import ListSchedulesResponse200ItemsItem
from .list_schedules_response_200_items_item_frequency import ListSchedulesResponse200ItemsItemFrequency
from .list_schedules_response_200_items_item_scan_type import ListSchedulesResponse200ItemsItemScanType
from .list_sessions_response_200 import ListSessionsResponse200
from .list_sessions_response_200_items_item import ListSessionsResponse200ItemsItem
from .list_targets_kind import ListTargetsKind
from .list_targets_response_200 import ListTargetsResponse200
from .list_targets_response_200_items_item import ListTargetsResponse200ItemsItem
from .list_targets_response_200_items_item_attempts_item import ListTargetsResponse200ItemsItemAttemptsItem
from .list_targets_response_200_items_item_attempts_item_method import ListTargetsResponse200ItemsItemAttemptsItemMethod
from .list_targets_response_200_items_item_attempts_item_source import ListTargetsResponse200ItemsItemAttemptsItemSource
from .list_targets_response_200_items_item_kind import ListTargetsResponse200ItemsItemKind
from .list_targets_response_200_items_item_verification import ListTargetsResponse200ItemsItemVerification
from .list_targets_response_200_items_item_verification_challenges_item import ListTargetsResponse200ItemsItemVerificationChallengesItem
from .list_targets_response_200_items_item_verification_challenges_item_method import ListTargetsResponse200ItemsItemVerificationChallengesItemMethod
from .list_targets_response_200_items_item_verification_method import ListTargetsResponse200ItemsItemVerificationMethod
from .list_targets_response_200_items_item_verification_status import ListTargetsResponse200ItemsItemVerificationStatus
from .list_targets_status import ListTargetsStatus
from .list_webhook_deliveries_event import ListWebhookDeliveriesEvent
from .list_webhook_deliveries_response_200 import ListWebhookDeliveriesResponse200
from .list_webhook_deliveries_response_200_items_item import ListWebhookDeliveriesResponse200ItemsItem
from .list_webhook_deliveries_response_200_items_item_status import ListWebhookDeliveriesResponse200ItemsItemStatus
from .list_webhook_deliveries_status import ListWebhookDeliveriesStatus
from .list_webhooks_response_200 import ListWebhooksResponse200
from .list_webhooks_response_200_items_item import ListWebhooksResponse200ItemsItem
from .logout_all_response_200 import LogoutAllResponse200
from .refresh_token_response_200 import RefreshTokenResponse200
from .refresh_token_response_200_token_type import RefreshTokenResponse200TokenType
from .replay_webhook_deliveries_body import ReplayWebhookDeliveriesBody
from .replay_webhook_deliveries_response_202 import ReplayWebhookDeliveriesResponse202
from .retest_finding_response_202 import RetestFindingResponse202
from .retest_finding_response_202_check import RetestFindingResponse202Check
from .retest_finding_response_202_evidence import RetestFindingResponse202Evidence
from .retest_finding_response_202_reason_type_1 import RetestFindingResponse202ReasonType1
from .retest_finding_response_202_reason_type_2_type_1 import RetestFindingResponse202ReasonType2Type1
from .retest_finding_response_202_reason_type_3_type_1 import RetestFindingResponse202ReasonType3Type1
from .retest_finding_response_202_status import RetestFindingResponse202Status
from .retest_finding_response_202_verdict_type_1 import RetestFindingResponse202VerdictType1
from .retest_finding_response_202_verdict_type_2_type_1 import RetestFindingResponse202VerdictType2Type1
from .retest_finding_response_202_verdict_type_3_type_1 import RetestFindingResponse202VerdictType3Type1
from .retry_webhook_delivery_response_200 import RetryWebhookDeliveryResponse200
from .retry_webhook_delivery_response_200_status import RetryWebhookDeliveryResponse200Status
from .revoke_api_key_response_200 import RevokeApiKeyResponse200
from .revoke_api_key_response_200_permissions_item import RevokeApiKeyResponse200PermissionsItem
from .revoke_session_response_200 import RevokeSessionResponse200
from .revoke_session_response_200_status import RevokeSessionResponse200Status
from .setup_mfa_response_200 import SetupMfaResponse200
from .test_webhook_response_200 import TestWebhookResponse200
from .test_webhook_response_200_status import TestWebhookResponse200Status
from .update_control_body import UpdateControlBody
from .update_control_body_status import UpdateControlBodyStatus
from .update_control_response_200 import UpdateControlResponse200
from .update_control_response_200_framework_refs_item import UpdateControlResponse200FrameworkRefsItem
from .update_control_response_200_set_status import UpdateControlResponse200SetStatus
from .update_control_response_200_status import UpdateControlResponse200Status
from .update_finding_body import UpdateFindingBody
from .update_finding_body_acceptance import UpdateFindingBodyAcceptance
from .update_finding_body_priority_type_1 import UpdateFindingBodyPriorityType1
from .update_finding_body_priority_type_2_type_1 import UpdateFindingBodyPriorityType2Type1
from .update_finding_body_priority_type_3_type_1 import UpdateFindingBodyPriorityType3Type1
from .update_finding_body_status import UpdateFindingBodyStatus
from .update_finding_response_200 import UpdateFindingResponse200
from .update_finding_response_200_status import UpdateFindingResponse200Status
from .update_findings_policy_body import UpdateFindingsPolicyBody
from .update_findings_policy_body_sla_days import UpdateFindingsPolicyBodySlaDays
from .update_findings_policy_response_200 import UpdateFindingsPolicyResponse200
from .update_findings_policy_response_200_sla_days import UpdateFindingsPolicyResponse200SlaDays
from .update_webhook_body import UpdateWebhookBody
from .update_webhook_body_events_item import UpdateWebhookBodyEventsItem
from .update_webhook_response_200 import UpdateWebhookResponse200
from .upload_evidence_body import UploadEvidenceBody
from .upload_evidence_response_201 import UploadEvidenceResponse201
from .upload_evidence_response_201_source import UploadEvidenceResponse201Source
from .upload_evidence_response_201_status import UploadEvidenceResponse201Status
from .verify_target_body import VerifyTargetBody
from .verify_target_body_method import VerifyTargetBodyMethod
from .verify_target_response_200 import VerifyTargetResponse200
from .verify_target_response_200_attempts_item import VerifyTargetResponse200AttemptsItem
from .verify_target_response_200_attempts_item_method import VerifyTargetResponse200AttemptsItemMethod
from .verify_target_response_200_attempts_item_source import VerifyTargetResponse200AttemptsItemSource
from .verify_target_response_200_kind import VerifyTargetResponse200Kind
from .verify_target_response_200_verification import VerifyTargetResponse200Verification
from .verify_target_response_200_verification_challenges_item import VerifyTargetResponse200VerificationChallengesItem
from .verify_target_response_200_verification_challenges_item_method import VerifyTargetResponse200VerificationChallengesItemMethod
from .verify_target_response_200_verification_method import VerifyTargetResponse200VerificationMethod
from .verify_target_response_200_verification_status import VerifyTargetResponse200VerificationStatus

__all__ = (
    "AddFindingCommentBody",
    "AddFindingCommentResponse201",
    "AnswerAuditRequestBody",
    "AnswerAuditRequestBodyStatus",
    "AnswerAuditRequestResponse200",
    "AnswerAuditRequestResponse200Framework",
    "AnswerAuditRequestResponse200Status",
    "BulkUpdateFindingsBody",
    "BulkUpdateFindingsBodyUpdate",
    "BulkUpdateFindingsBodyUpdateAcceptance",
    "BulkUpdateFindingsBodyUpdateStatus",
    "BulkUpdateFindingsResponse200",
    "BulkUpdateFindingsResponse200FailedItem",
    "CancelScanResponse200",
    "CancelScanResponse200Status",
    "CreateApiKeyBody",
    "CreateApiKeyBodyPermissionsItem",
    "CreateApiKeyResponse201",
    "CreateApiKeyResponse201PermissionsItem",
    "CreateAuditRequestBody",
    "CreateAuditRequestBodyFramework",
    "CreateAuditRequestResponse201",
    "CreateAuditRequestResponse201Framework",
    "CreateAuditRequestResponse201Status",
    "CreateScanBody",
    "CreateScanBodyFrameworksItem",
    "CreateScanBodyScanType",
    "CreateScanResponse201",
    "CreateScanResponse201ScanType",
    "CreateScanResponse201Status",
    "CreateScheduleBody",
    "CreateScheduleBodyFrameworksItem",
    "CreateScheduleBodyFrequency",
    "CreateScheduleBodyScanType",
    "CreateScheduleResponse201",
    "CreateScheduleResponse201Frequency",
    "CreateScheduleResponse201ScanType",
    "CreateTargetBody",
    "CreateTargetResponse201",
    "CreateTargetResponse201AttemptsItem",
    "CreateTargetResponse201AttemptsItemMethod",
    "CreateTargetResponse201AttemptsItemSource",
    "CreateTargetResponse201Kind",
    "CreateTargetResponse201Verification",
    "CreateTargetResponse201VerificationChallengesItem",
    "CreateTargetResponse201VerificationChallengesItemMethod",
    "CreateTargetResponse201VerificationMethod",
    "CreateTargetResponse201VerificationStatus",
    "CreateTokenBody",
    "CreateTokenBodyGrantType",
    "CreateTokenResponse200",
    "CreateTokenResponse200TokenType",
    "CreateWebhookBody",
    "CreateWebhookBodyEventsItem",
    "CreateWebhookResponse201",
    "DecideFindingAcceptanceBody",
    "DecideFindingAcceptanceBodyDecision",
    "DecideFindingAcceptanceResponse200",
    "DecideFindingAcceptanceResponse200AcceptanceType0",
    "DecideFindingAcceptanceResponse200AcceptanceType0State",
    "DecideFindingAcceptanceResponse200CommentsItem",
    "DecideFindingAcceptanceResponse200ConfidenceType1",
    "DecideFindingAcceptanceResponse200ConfidenceType2Type1",
    "DecideFindingAcceptanceResponse200ConfidenceType3Type1",
    "DecideFindingAcceptanceResponse200DueDateSourceType1",
    "DecideFindingAcceptanceResponse200DueDateSourceType2Type1",
    "DecideFindingAcceptanceResponse200DueDateSourceType3Type1",
    "DecideFindingAcceptanceResponse200Evidence",
    "DecideFindingAcceptanceResponse200FrameworksItem",
    "DecideFindingAcceptanceResponse200HistoryItem",
    "DecideFindingAcceptanceResponse200PriorityType1",
    "DecideFindingAcceptanceResponse200PriorityType2Type1",
    "DecideFindingAcceptanceResponse200PriorityType3Type1",
    "DecideFindingAcceptanceResponse200Remediation",
    "DecideFindingAcceptanceResponse200ResolutionType1",
    "DecideFindingAcceptanceResponse200ResolutionType2Type1",
    "DecideFindingAcceptanceResponse200ResolutionType3Type1",
    "DecideFindingAcceptanceResponse200Severity",
    "DecideFindingAcceptanceResponse200SlaStateType1",
    "DecideFindingAcceptanceResponse200SlaStateType2Type1",
    "DecideFindingAcceptanceResponse200SlaStateType3Type1",
    "DecideFindingAcceptanceResponse200Status",
    "DeleteScheduleResponse200",
    "DeleteScheduleResponse200Status",
    "DeleteTargetResponse200",
    "DeleteTargetResponse200Status",
    "DisableMfaBody",
    "DisableMfaResponse200",
    "EnableMfaBody",
    "EnableMfaResponse200",
    "ErrorBody",
    "ErrorBodyErrorsItem",
    "ExportFindingsConfidence",
    "ExportFindingsFormat",
    "ExportFindingsOrder",
    "ExportFindingsSeverity",
    "ExportFindingsSlaState",
    "ExportFindingsSort",
    "ExportFindingsStatus",
    "GetAuditRequestResponse200",
    "GetAuditRequestResponse200Framework",
    "GetAuditRequestResponse200Status",
    "GetControlResponse200",
    "GetControlResponse200FrameworkRefsItem",
    "GetControlResponse200SetStatus",
    "GetControlResponse200Status",
    "GetEvidenceResponse200",
    "GetEvidenceResponse200Source",
    "GetEvidenceResponse200Status",
    "GetFindingAiAnalysisResponse200",
    "GetFindingAiAnalysisResponse200AiAnalysis",
    "GetFindingAiAnalysisResponse200AiAnalysisRemediationPriority",
    "GetFindingAiAnalysisResponse200AiAnalysisSource",
    "GetFindingResponse200",
    "GetFindingResponse200AcceptanceType0",
    "GetFindingResponse200AcceptanceType0State",
    "GetFindingResponse200CommentsItem",
    "GetFindingResponse200ConfidenceType1",
    "GetFindingResponse200ConfidenceType2Type1",
    "GetFindingResponse200ConfidenceType3Type1",
    "GetFindingResponse200DueDateSourceType1",
    "GetFindingResponse200DueDateSourceType2Type1",
    "GetFindingResponse200DueDateSourceType3Type1",
    "GetFindingResponse200Evidence",
    "GetFindingResponse200FrameworksItem",
    "GetFindingResponse200HistoryItem",
    "GetFindingResponse200PriorityType1",
    "GetFindingResponse200PriorityType2Type1",
    "GetFindingResponse200PriorityType3Type1",
    "GetFindingResponse200Remediation",
    "GetFindingResponse200ResolutionType1",
    "GetFindingResponse200ResolutionType2Type1",
    "GetFindingResponse200ResolutionType3Type1",
    "GetFindingResponse200Severity",
    "GetFindingResponse200SlaStateType1",
    "GetFindingResponse200SlaStateType2Type1",
    "GetFindingResponse200SlaStateType3Type1",
    "GetFindingResponse200Status",
    "GetFindingsPolicyResponse200",
    "GetFindingsPolicyResponse200SlaDays",
    "GetFindingStatsResponse200",
    "GetFindingStatsResponse200BySeverity",
    "GetFindingStatsResponse200ByStatus",
    "GetFindingStatsResponse200ByTool",
    "GetFindingStatsResponse200Sla",
    "GetFindingStatsResponse200Trends",
    "GetHealthResponse200",
    "GetHealthResponse200Services",
    "GetHealthResponse200ServicesAdditionalProperty",
    "GetHealthResponse200Status",
    "GetHealthResponse503",
    "GetHealthResponse503Services",
    "GetHealthResponse503ServicesAdditionalProperty",
    "GetHealthResponse503Status",
    "GetScanQuotaResponse200",
    "GetScanQuotaResponse200Plan",
    "GetScanResponse200",
    "GetScanResponse200PhasesCompletedItem",
    "GetScanResponse200PhasesRemainingItem",
    "GetScanResponse200ScanType",
    "GetScanResponse200Status",
    "GetTargetResponse200",
    "GetTargetResponse200AttemptsItem",
    "GetTargetResponse200AttemptsItemMethod",
    "GetTargetResponse200AttemptsItemSource",
    "GetTargetResponse200Kind",
    "GetTargetResponse200Verification",
    "GetTargetResponse200VerificationChallengesItem",
    "GetTargetResponse200VerificationChallengesItemMethod",
    "GetTargetResponse200VerificationMethod",
    "GetTargetResponse200VerificationStatus",
    "GetWebhookResponse200",
    "ListApiKeysResponse200",
    "ListApiKeysResponse200ItemsItem",
    "ListApiKeysResponse200ItemsItemPermissionsItem",
    "ListAuditRequestsResponse200",
    "ListAuditRequestsResponse200ItemsItem",
    "ListAuditRequestsResponse200ItemsItemFramework",
    "ListAuditRequestsResponse200ItemsItemStatus",
    "ListAuditRequestsStatus",
    "ListControlsFramework",
    "ListControlsResponse200",
    "ListControlsResponse200ItemsItem",
    "ListControlsResponse200ItemsItemFrameworkRefsItem",
    "ListControlsResponse200ItemsItemStatus",
    "ListControlsStatus",
    "ListEvidenceResponse200",
    "ListEvidenceResponse200ItemsItem",
    "ListEvidenceResponse200ItemsItemSource",
    "ListEvidenceResponse200ItemsItemStatus",
    "ListFindingRetestsResponse200",
    "ListFindingRetestsResponse200ItemsItem",
    "ListFindingRetestsResponse200ItemsItemCheck",
    "ListFindingRetestsResponse200ItemsItemEvidence",
    "ListFindingRetestsResponse200ItemsItemReasonType1",
    "ListFindingRetestsResponse200ItemsItemReasonType2Type1",
    "ListFindingRetestsResponse200ItemsItemReasonType3Type1",
    "ListFindingRetestsResponse200ItemsItemStatus",
    "ListFindingRetestsResponse200ItemsItemVerdictType1",
    "ListFindingRetestsResponse200ItemsItemVerdictType2Type1",
    "ListFindingRetestsResponse200ItemsItemVerdictType3Type1",
    "ListFindingsConfidence",
    "ListFindingsOrder",
    "ListFindingsResponse200",
    "ListFindingsResponse200ItemsItem",
    "ListFindingsResponse200ItemsItemConfidenceType1",
    "ListFindingsResponse200ItemsItemConfidenceType2Type1",
    "ListFindingsResponse200ItemsItemConfidenceType3Type1",
    "ListFindingsResponse200ItemsItemSeverity",
    "ListFindingsResponse200ItemsItemSlaStateType1",
    "ListFindingsResponse200ItemsItemSlaStateType2Type1",
    "ListFindingsResponse200ItemsItemSlaStateType3Type1",
    "ListFindingsResponse200ItemsItemStatus",
    "ListFindingsSeverity",
    "ListFindingsSlaState",
    "ListFindingsSort",
    "ListFindingsStatus",
    "ListFrameworksResponse200",
    "ListFrameworksResponse200ItemsItem",
    "ListFrameworksResponse200ItemsItemId",
    "ListScanFindingsResponse200",
    "ListScanFindingsResponse200ItemsItem",
    "ListScanFindingsResponse200ItemsItemSeverity",
    "ListScanFindingsResponse200ItemsItemStatus",
    "ListScanFindingsSeverity",
    "ListScanFindingsStatus",
    "ListScansResponse200",
    "ListScansResponse200ItemsItem",
    "ListScansResponse200ItemsItemScanType",
    "ListScansResponse200ItemsItemStatus",
    "ListScansStatus",
    "ListSchedulesResponse200",
    "ListSchedulesResponse200ItemsItem",
    "ListSchedulesResponse200ItemsItemFrequency",
    "ListSchedulesResponse200ItemsItemScanType",
    "ListSessionsResponse200",
    "ListSessionsResponse200ItemsItem",
    "ListTargetsKind",
    "ListTargetsResponse200",
    "ListTargetsResponse200ItemsItem",
    "ListTargetsResponse200ItemsItemAttemptsItem",
    "ListTargetsResponse200ItemsItemAttemptsItemMethod",
    "ListTargetsResponse200ItemsItemAttemptsItemSource",
    "ListTargetsResponse200ItemsItemKind",
    "ListTargetsResponse200ItemsItemVerification",
    "ListTargetsResponse200ItemsItemVerificationChallengesItem",
    "ListTargetsResponse200ItemsItemVerificationChallengesItemMethod",
    "ListTargetsResponse200ItemsItemVerificationMethod",
    "ListTargetsResponse200ItemsItemVerificationStatus",
    "ListTargetsStatus",
    "ListWebhookDeliveriesEvent",
    "ListWebhookDeliveriesResponse200",
    "ListWebhookDeliveriesResponse200ItemsItem",
    "ListWebhookDeliveriesResponse200ItemsItemStatus",
    "ListWebhookDeliveriesStatus",
    "ListWebhooksResponse200",
    "ListWebhooksResponse200ItemsItem",
    "LogoutAllResponse200",
    "RefreshTokenResponse200",
    "RefreshTokenResponse200TokenType",
    "ReplayWebhookDeliveriesBody",
    "ReplayWebhookDeliveriesResponse202",
    "RetestFindingResponse202",
    "RetestFindingResponse202Check",
    "RetestFindingResponse202Evidence",
    "RetestFindingResponse202ReasonType1",
    "RetestFindingResponse202ReasonType2Type1",
    "RetestFindingResponse202ReasonType3Type1",
    "RetestFindingResponse202Status",
    "RetestFindingResponse202VerdictType1",
    "RetestFindingResponse202VerdictType2Type1",
    "RetestFindingResponse202VerdictType3Type1",
    "RetryWebhookDeliveryResponse200",
    "RetryWebhookDeliveryResponse200Status",
    "RevokeApiKeyResponse200",
    "RevokeApiKeyResponse200PermissionsItem",
    "RevokeSessionResponse200",
    "RevokeSessionResponse200Status",
    "SetupMfaResponse200",
    "TestWebhookResponse200",
    "TestWebhookResponse200Status",
    "UpdateControlBody",
    "UpdateControlBodyStatus",
    "UpdateControlResponse200",
    "UpdateControlResponse200FrameworkRefsItem",
    "UpdateControlResponse200SetStatus",
    "UpdateControlResponse200Status",
    "UpdateFindingBody",
    "UpdateFindingBodyAcceptance",
    "UpdateFindingBodyPriorityType1",
    "UpdateFindingBodyPriorityType2Type1",
    "UpdateFindingBodyPriorityType3Type1",
    "UpdateFindingBodyStatus",
    "UpdateFindingResponse200",
    "UpdateFindingResponse200Status",
    "UpdateFindingsPolicyBody",
    "UpdateFindingsPolicyBodySlaDays",
    "UpdateFindingsPolicyResponse200",
    "UpdateFindingsPolicyResponse200SlaDays",
    "UpdateWebhookBody",
    "UpdateWebhookBodyEventsItem",
    "UpdateWebhookResponse200",
    "UploadEvidenceBody",
    "UploadEvidenceResponse201",
    "UploadEvidenceResponse201Source",
    "UploadEvidenceResponse201Status",
    "VerifyTargetBody",
    "VerifyTargetBodyMethod",
    "VerifyTargetResponse200",
    "VerifyTargetResponse200AttemptsItem",
    "VerifyTargetResponse200AttemptsItemMethod",
    "VerifyTargetResponse200AttemptsItemSource",
    "VerifyTargetResponse200Kind",
    "VerifyTargetResponse200Verification",
    "VerifyTargetResponse200VerificationChallengesItem",
    "VerifyTargetResponse200VerificationChallengesItemMethod",
    "VerifyTargetResponse200VerificationMethod",
    "VerifyTargetResponse200VerificationStatus",
)
