from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.decide_finding_acceptance_response_200_confidence_type_1 import DecideFindingAcceptanceResponse200ConfidenceType1
from ..models.decide_finding_acceptance_response_200_confidence_type_2_type_1 import DecideFindingAcceptanceResponse200ConfidenceType2Type1
from ..models.decide_finding_acceptance_response_200_confidence_type_3_type_1 import DecideFindingAcceptanceResponse200ConfidenceType3Type1
from ..models.decide_finding_acceptance_response_200_due_date_source_type_1 import DecideFindingAcceptanceResponse200DueDateSourceType1
from ..models.decide_finding_acceptance_response_200_due_date_source_type_2_type_1 import DecideFindingAcceptanceResponse200DueDateSourceType2Type1
from ..models.decide_finding_acceptance_response_200_due_date_source_type_3_type_1 import DecideFindingAcceptanceResponse200DueDateSourceType3Type1
from ..models.decide_finding_acceptance_response_200_priority_type_1 import DecideFindingAcceptanceResponse200PriorityType1
from ..models.decide_finding_acceptance_response_200_priority_type_2_type_1 import DecideFindingAcceptanceResponse200PriorityType2Type1
from ..models.decide_finding_acceptance_response_200_priority_type_3_type_1 import DecideFindingAcceptanceResponse200PriorityType3Type1
from ..models.decide_finding_acceptance_response_200_resolution_type_1 import DecideFindingAcceptanceResponse200ResolutionType1
from ..models.decide_finding_acceptance_response_200_resolution_type_2_type_1 import DecideFindingAcceptanceResponse200ResolutionType2Type1
from ..models.decide_finding_acceptance_response_200_resolution_type_3_type_1 import DecideFindingAcceptanceResponse200ResolutionType3Type1
from ..models.decide_finding_acceptance_response_200_severity import DecideFindingAcceptanceResponse200Severity
from ..models.decide_finding_acceptance_response_200_sla_state_type_1 import DecideFindingAcceptanceResponse200SlaStateType1
from ..models.decide_finding_acceptance_response_200_sla_state_type_2_type_1 import DecideFindingAcceptanceResponse200SlaStateType2Type1
from ..models.decide_finding_acceptance_response_200_sla_state_type_3_type_1 import DecideFindingAcceptanceResponse200SlaStateType3Type1
from ..models.decide_finding_acceptance_response_200_status import DecideFindingAcceptanceResponse200Status
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.decide_finding_acceptance_response_200_acceptance_type_0 import DecideFindingAcceptanceResponse200AcceptanceType0
  from ..models.decide_finding_acceptance_response_200_comments_item import DecideFindingAcceptanceResponse200CommentsItem
  from ..models.decide_finding_acceptance_response_200_evidence import DecideFindingAcceptanceResponse200Evidence
  from ..models.decide_finding_acceptance_response_200_frameworks_item import DecideFindingAcceptanceResponse200FrameworksItem
  from ..models.decide_finding_acceptance_response_200_history_item import DecideFindingAcceptanceResponse200HistoryItem
  from ..models.decide_finding_acceptance_response_200_remediation import DecideFindingAcceptanceResponse200Remediation





T = TypeVar("T", bound="DecideFindingAcceptanceResponse200")



@_attrs_define
class DecideFindingAcceptanceResponse200:
    """ 
        Attributes:
            id (str): `finding_<id>`
            title (str):
            severity (DecideFindingAcceptanceResponse200Severity):
            status (DecideFindingAcceptanceResponse200Status):
            cvss_score (float):
            epss_score (float | None): EPSS probability 0–1; null when unknown
            target (str):
            affected_component (str):
            tool (str): Detection tool
            template_id (str): Check (template) id of the tool
            cve_ids (list[str]):
            cwe_ids (list[str]):
            scan_id (str): The scan that first detected it
            detected_at (datetime.datetime):
            confidence (DecideFindingAcceptanceResponse200ConfidenceType1 |
                DecideFindingAcceptanceResponse200ConfidenceType2Type1 | DecideFindingAcceptanceResponse200ConfidenceType3Type1
                | None): How far the finding can be trusted without checking it by hand (added to the spec's fields):
                `confirmed` (the check observed the weakness), `version_match` (only a version range matched),
                `version_match_unverified_backport` (the version matched but the distribution revision the service shows could
                not be resolved, so a backported fix may be installed); null for findings stored before it existed
            due_date (datetime.datetime | None):
            sla_state (DecideFindingAcceptanceResponse200SlaStateType1 |
                DecideFindingAcceptanceResponse200SlaStateType2Type1 | DecideFindingAcceptanceResponse200SlaStateType3Type1 |
                None): Where the SLA stands now (added to the spec's fields): `within`, `at_risk` (the last 20 % of the time
                from detection to due_date), `breached`; null when no SLA runs (no due date, or resolved, false_positive or
                accepted)
            frameworks (list[DecideFindingAcceptanceResponse200FrameworksItem]):
            cvss_vector (str):
            description (str):
            impact (str):
            remediation (DecideFindingAcceptanceResponse200Remediation):
            evidence (DecideFindingAcceptanceResponse200Evidence):
            comments (list[DecideFindingAcceptanceResponse200CommentsItem]):
            history (list[DecideFindingAcceptanceResponse200HistoryItem]):
            kev (bool | Unset): Listed in CISA's Known Exploited Vulnerabilities catalogue
            assignee (str | Unset):
            priority (DecideFindingAcceptanceResponse200PriorityType1 | DecideFindingAcceptanceResponse200PriorityType2Type1
                | DecideFindingAcceptanceResponse200PriorityType3Type1 | None | Unset):
            notes (str | Unset):
            last_seen_at (datetime.datetime | Unset):
            created_at (datetime.datetime | Unset):
            updated_at (datetime.datetime | Unset):
            due_date_source (DecideFindingAcceptanceResponse200DueDateSourceType1 |
                DecideFindingAcceptanceResponse200DueDateSourceType2Type1 |
                DecideFindingAcceptanceResponse200DueDateSourceType3Type1 | None | Unset): Where due_date came from; null
                without one
            sla_at_risk_at (datetime.datetime | None | Unset): When it turns at_risk (while an SLA runs)
            acceptance (DecideFindingAcceptanceResponse200AcceptanceType0 | None | Unset): The latest risk acceptance; null
                when none was asked for
            resolution (DecideFindingAcceptanceResponse200ResolutionType1 |
                DecideFindingAcceptanceResponse200ResolutionType2Type1 | DecideFindingAcceptanceResponse200ResolutionType3Type1
                | None | Unset): How the system resolved it (added to the spec's fields): `verified_fixed` (a retest ran the
                check and it no longer matched), `not_detected` (auto-resolution: a later scan covered the same check on the
                same component and did not match); null while not resolved or when a person resolved it
     """

    id: str
    title: str
    severity: DecideFindingAcceptanceResponse200Severity
    status: DecideFindingAcceptanceResponse200Status
    cvss_score: float
    epss_score: float | None
    target: str
    affected_component: str
    tool: str
    template_id: str
    cve_ids: list[str]
    cwe_ids: list[str]
    scan_id: str
    detected_at: datetime.datetime
    confidence: DecideFindingAcceptanceResponse200ConfidenceType1 | DecideFindingAcceptanceResponse200ConfidenceType2Type1 | DecideFindingAcceptanceResponse200ConfidenceType3Type1 | None
    due_date: datetime.datetime | None
    sla_state: DecideFindingAcceptanceResponse200SlaStateType1 | DecideFindingAcceptanceResponse200SlaStateType2Type1 | DecideFindingAcceptanceResponse200SlaStateType3Type1 | None
    frameworks: list[DecideFindingAcceptanceResponse200FrameworksItem]
    cvss_vector: str
    description: str
    impact: str
    remediation: DecideFindingAcceptanceResponse200Remediation
    evidence: DecideFindingAcceptanceResponse200Evidence
    comments: list[DecideFindingAcceptanceResponse200CommentsItem]
    history: list[DecideFindingAcceptanceResponse200HistoryItem]
    kev: bool | Unset = UNSET
    assignee: str | Unset = UNSET
    priority: DecideFindingAcceptanceResponse200PriorityType1 | DecideFindingAcceptanceResponse200PriorityType2Type1 | DecideFindingAcceptanceResponse200PriorityType3Type1 | None | Unset = UNSET
    notes: str | Unset = UNSET
    last_seen_at: datetime.datetime | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    due_date_source: DecideFindingAcceptanceResponse200DueDateSourceType1 | DecideFindingAcceptanceResponse200DueDateSourceType2Type1 | DecideFindingAcceptanceResponse200DueDateSourceType3Type1 | None | Unset = UNSET
    sla_at_risk_at: datetime.datetime | None | Unset = UNSET
    acceptance: DecideFindingAcceptanceResponse200AcceptanceType0 | None | Unset = UNSET
    resolution: DecideFindingAcceptanceResponse200ResolutionType1 | DecideFindingAcceptanceResponse200ResolutionType2Type1 | DecideFindingAcceptanceResponse200ResolutionType3Type1 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.decide_finding_acceptance_response_200_acceptance_type_0 import DecideFindingAcceptanceResponse200AcceptanceType0 # noqa: PLC0415
        from ..models.decide_finding_acceptance_response_200_comments_item import DecideFindingAcceptanceResponse200CommentsItem # noqa: PLC0415
        from ..models.decide_finding_acceptance_response_200_evidence import DecideFindingAcceptanceResponse200Evidence # noqa: PLC0415
        from ..models.decide_finding_acceptance_response_200_frameworks_item import DecideFindingAcceptanceResponse200FrameworksItem # noqa: PLC0415
        from ..models.decide_finding_acceptance_response_200_history_item import DecideFindingAcceptanceResponse200HistoryItem # noqa: PLC0415
        from ..models.decide_finding_acceptance_response_200_remediation import DecideFindingAcceptanceResponse200Remediation # noqa: PLC0415
        id = self.id

        title = self.title

        severity = self.severity.value

        status = self.status.value

        cvss_score = self.cvss_score

        epss_score: float | None
        epss_score = self.epss_score

        target = self.target

        affected_component = self.affected_component

        tool = self.tool

        template_id = self.template_id

        cve_ids = self.cve_ids



        cwe_ids = self.cwe_ids



        scan_id = self.scan_id

        detected_at = self.detected_at.isoformat()

        confidence: None | str
        if isinstance(self.confidence, DecideFindingAcceptanceResponse200ConfidenceType1):
            confidence = self.confidence.value
        elif isinstance(self.confidence, DecideFindingAcceptanceResponse200ConfidenceType2Type1):
            confidence = self.confidence.value
        elif isinstance(self.confidence, DecideFindingAcceptanceResponse200ConfidenceType3Type1):
            confidence = self.confidence.value
        else:
            confidence = self.confidence

        due_date: None | str
        if isinstance(self.due_date, datetime.datetime):
            due_date = self.due_date.isoformat()
        else:
            due_date = self.due_date

        sla_state: None | str
        if isinstance(self.sla_state, DecideFindingAcceptanceResponse200SlaStateType1):
            sla_state = self.sla_state.value
        elif isinstance(self.sla_state, DecideFindingAcceptanceResponse200SlaStateType2Type1):
            sla_state = self.sla_state.value
        elif isinstance(self.sla_state, DecideFindingAcceptanceResponse200SlaStateType3Type1):
            sla_state = self.sla_state.value
        else:
            sla_state = self.sla_state

        frameworks = []
        for frameworks_item_data in self.frameworks:
            frameworks_item = frameworks_item_data.to_dict()
            frameworks.append(frameworks_item)



        cvss_vector = self.cvss_vector

        description = self.description

        impact = self.impact

        remediation = self.remediation.to_dict()

        evidence = self.evidence.to_dict()

        comments = []
        for comments_item_data in self.comments:
            comments_item = comments_item_data.to_dict()
            comments.append(comments_item)



        history = []
        for history_item_data in self.history:
            history_item = history_item_data.to_dict()
            history.append(history_item)



        kev = self.kev

        assignee = self.assignee

        priority: None | str | Unset
        if isinstance(self.priority, Unset):
            priority = UNSET
        elif isinstance(self.priority, DecideFindingAcceptanceResponse200PriorityType1):
            priority = self.priority.value
        elif isinstance(self.priority, DecideFindingAcceptanceResponse200PriorityType2Type1):
            priority = self.priority.value
        elif isinstance(self.priority, DecideFindingAcceptanceResponse200PriorityType3Type1):
            priority = self.priority.value
        else:
            priority = self.priority

        notes = self.notes

        last_seen_at: str | Unset = UNSET
        if not isinstance(self.last_seen_at, Unset):
            last_seen_at = self.last_seen_at.isoformat()

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()

        due_date_source: None | str | Unset
        if isinstance(self.due_date_source, Unset):
            due_date_source = UNSET
        elif isinstance(self.due_date_source, DecideFindingAcceptanceResponse200DueDateSourceType1):
            due_date_source = self.due_date_source.value
        elif isinstance(self.due_date_source, DecideFindingAcceptanceResponse200DueDateSourceType2Type1):
            due_date_source = self.due_date_source.value
        elif isinstance(self.due_date_source, DecideFindingAcceptanceResponse200DueDateSourceType3Type1):
            due_date_source = self.due_date_source.value
        else:
            due_date_source = self.due_date_source

        sla_at_risk_at: None | str | Unset
        if isinstance(self.sla_at_risk_at, Unset):
            sla_at_risk_at = UNSET
        elif isinstance(self.sla_at_risk_at, datetime.datetime):
            sla_at_risk_at = self.sla_at_risk_at.isoformat()
        else:
            sla_at_risk_at = self.sla_at_risk_at

        acceptance: dict[str, Any] | None | Unset
        if isinstance(self.acceptance, Unset):
            acceptance = UNSET
        elif isinstance(self.acceptance, DecideFindingAcceptanceResponse200AcceptanceType0):
            acceptance = self.acceptance.to_dict()
        else:
            acceptance = self.acceptance

        resolution: None | str | Unset
        if isinstance(self.resolution, Unset):
            resolution = UNSET
        elif isinstance(self.resolution, DecideFindingAcceptanceResponse200ResolutionType1):
            resolution = self.resolution.value
        elif isinstance(self.resolution, DecideFindingAcceptanceResponse200ResolutionType2Type1):
            resolution = self.resolution.value
        elif isinstance(self.resolution, DecideFindingAcceptanceResponse200ResolutionType3Type1):
            resolution = self.resolution.value
        else:
            resolution = self.resolution


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "title": title,
            "severity": severity,
            "status": status,
            "cvss_score": cvss_score,
            "epss_score": epss_score,
            "target": target,
            "affected_component": affected_component,
            "tool": tool,
            "template_id": template_id,
            "cve_ids": cve_ids,
            "cwe_ids": cwe_ids,
            "scan_id": scan_id,
            "detected_at": detected_at,
            "confidence": confidence,
            "due_date": due_date,
            "sla_state": sla_state,
            "frameworks": frameworks,
            "cvss_vector": cvss_vector,
            "description": description,
            "impact": impact,
            "remediation": remediation,
            "evidence": evidence,
            "comments": comments,
            "history": history,
        })
        if kev is not UNSET:
            field_dict["kev"] = kev
        if assignee is not UNSET:
            field_dict["assignee"] = assignee
        if priority is not UNSET:
            field_dict["priority"] = priority
        if notes is not UNSET:
            field_dict["notes"] = notes
        if last_seen_at is not UNSET:
            field_dict["last_seen_at"] = last_seen_at
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at
        if due_date_source is not UNSET:
            field_dict["due_date_source"] = due_date_source
        if sla_at_risk_at is not UNSET:
            field_dict["sla_at_risk_at"] = sla_at_risk_at
        if acceptance is not UNSET:
            field_dict["acceptance"] = acceptance
        if resolution is not UNSET:
            field_dict["resolution"] = resolution

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.decide_finding_acceptance_response_200_acceptance_type_0 import DecideFindingAcceptanceResponse200AcceptanceType0 # noqa: PLC0415
        from ..models.decide_finding_acceptance_response_200_comments_item import DecideFindingAcceptanceResponse200CommentsItem # noqa: PLC0415
        from ..models.decide_finding_acceptance_response_200_evidence import DecideFindingAcceptanceResponse200Evidence # noqa: PLC0415
        from ..models.decide_finding_acceptance_response_200_frameworks_item import DecideFindingAcceptanceResponse200FrameworksItem # noqa: PLC0415
        from ..models.decide_finding_acceptance_response_200_history_item import DecideFindingAcceptanceResponse200HistoryItem # noqa: PLC0415
        from ..models.decide_finding_acceptance_response_200_remediation import DecideFindingAcceptanceResponse200Remediation # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title")

        severity = DecideFindingAcceptanceResponse200Severity(d.pop("severity"))




        status = DecideFindingAcceptanceResponse200Status(d.pop("status"))




        cvss_score = d.pop("cvss_score")

        def _parse_epss_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        epss_score = _parse_epss_score(d.pop("epss_score"))


        target = d.pop("target")

        affected_component = d.pop("affected_component")

        tool = d.pop("tool")

        template_id = d.pop("template_id")

        cve_ids = cast(list[str], d.pop("cve_ids"))


        cwe_ids = cast(list[str], d.pop("cwe_ids"))


        scan_id = d.pop("scan_id")

        detected_at = datetime.datetime.fromisoformat(d.pop("detected_at"))




        def _parse_confidence(data: object) -> DecideFindingAcceptanceResponse200ConfidenceType1 | DecideFindingAcceptanceResponse200ConfidenceType2Type1 | DecideFindingAcceptanceResponse200ConfidenceType3Type1 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                confidence_type_1 = DecideFindingAcceptanceResponse200ConfidenceType1(data)



                return confidence_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                confidence_type_2_type_1 = DecideFindingAcceptanceResponse200ConfidenceType2Type1(data)



                return confidence_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                confidence_type_3_type_1 = DecideFindingAcceptanceResponse200ConfidenceType3Type1(data)



                return confidence_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DecideFindingAcceptanceResponse200ConfidenceType1 | DecideFindingAcceptanceResponse200ConfidenceType2Type1 | DecideFindingAcceptanceResponse200ConfidenceType3Type1 | None, data)

        confidence = _parse_confidence(d.pop("confidence"))


        def _parse_due_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_date_type_0 = datetime.datetime.fromisoformat(data)



                return due_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        due_date = _parse_due_date(d.pop("due_date"))


        def _parse_sla_state(data: object) -> DecideFindingAcceptanceResponse200SlaStateType1 | DecideFindingAcceptanceResponse200SlaStateType2Type1 | DecideFindingAcceptanceResponse200SlaStateType3Type1 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sla_state_type_1 = DecideFindingAcceptanceResponse200SlaStateType1(data)



                return sla_state_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sla_state_type_2_type_1 = DecideFindingAcceptanceResponse200SlaStateType2Type1(data)



                return sla_state_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sla_state_type_3_type_1 = DecideFindingAcceptanceResponse200SlaStateType3Type1(data)



                return sla_state_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DecideFindingAcceptanceResponse200SlaStateType1 | DecideFindingAcceptanceResponse200SlaStateType2Type1 | DecideFindingAcceptanceResponse200SlaStateType3Type1 | None, data)

        sla_state = _parse_sla_state(d.pop("sla_state"))


        frameworks = []
        _frameworks = d.pop("frameworks")
        for frameworks_item_data in (_frameworks):
            frameworks_item = DecideFindingAcceptanceResponse200FrameworksItem.from_dict(frameworks_item_data)



            frameworks.append(frameworks_item)


        cvss_vector = d.pop("cvss_vector")

        description = d.pop("description")

        impact = d.pop("impact")

        remediation = DecideFindingAcceptanceResponse200Remediation.from_dict(d.pop("remediation"))




        evidence = DecideFindingAcceptanceResponse200Evidence.from_dict(d.pop("evidence"))




        comments = []
        _comments = d.pop("comments")
        for comments_item_data in (_comments):
            comments_item = DecideFindingAcceptanceResponse200CommentsItem.from_dict(comments_item_data)



            comments.append(comments_item)


        history = []
        _history = d.pop("history")
        for history_item_data in (_history):
            history_item = DecideFindingAcceptanceResponse200HistoryItem.from_dict(history_item_data)



            history.append(history_item)


        kev = d.pop("kev", UNSET)

        assignee = d.pop("assignee", UNSET)

        def _parse_priority(data: object) -> DecideFindingAcceptanceResponse200PriorityType1 | DecideFindingAcceptanceResponse200PriorityType2Type1 | DecideFindingAcceptanceResponse200PriorityType3Type1 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                priority_type_1 = DecideFindingAcceptanceResponse200PriorityType1(data)



                return priority_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                priority_type_2_type_1 = DecideFindingAcceptanceResponse200PriorityType2Type1(data)



                return priority_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                priority_type_3_type_1 = DecideFindingAcceptanceResponse200PriorityType3Type1(data)



                return priority_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DecideFindingAcceptanceResponse200PriorityType1 | DecideFindingAcceptanceResponse200PriorityType2Type1 | DecideFindingAcceptanceResponse200PriorityType3Type1 | None | Unset, data)

        priority = _parse_priority(d.pop("priority", UNSET))


        notes = d.pop("notes", UNSET)

        _last_seen_at = d.pop("last_seen_at", UNSET)
        last_seen_at: datetime.datetime | Unset
        if isinstance(_last_seen_at,  Unset):
            last_seen_at = UNSET
        else:
            last_seen_at = datetime.datetime.fromisoformat(_last_seen_at)




        _created_at = d.pop("created_at", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at,  Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)




        _updated_at = d.pop("updated_at", UNSET)
        updated_at: datetime.datetime | Unset
        if isinstance(_updated_at,  Unset):
            updated_at = UNSET
        else:
            updated_at = datetime.datetime.fromisoformat(_updated_at)




        def _parse_due_date_source(data: object) -> DecideFindingAcceptanceResponse200DueDateSourceType1 | DecideFindingAcceptanceResponse200DueDateSourceType2Type1 | DecideFindingAcceptanceResponse200DueDateSourceType3Type1 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_date_source_type_1 = DecideFindingAcceptanceResponse200DueDateSourceType1(data)



                return due_date_source_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_date_source_type_2_type_1 = DecideFindingAcceptanceResponse200DueDateSourceType2Type1(data)



                return due_date_source_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_date_source_type_3_type_1 = DecideFindingAcceptanceResponse200DueDateSourceType3Type1(data)



                return due_date_source_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DecideFindingAcceptanceResponse200DueDateSourceType1 | DecideFindingAcceptanceResponse200DueDateSourceType2Type1 | DecideFindingAcceptanceResponse200DueDateSourceType3Type1 | None | Unset, data)

        due_date_source = _parse_due_date_source(d.pop("due_date_source", UNSET))


        def _parse_sla_at_risk_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sla_at_risk_at_type_0 = datetime.datetime.fromisoformat(data)



                return sla_at_risk_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        sla_at_risk_at = _parse_sla_at_risk_at(d.pop("sla_at_risk_at", UNSET))


        def _parse_acceptance(data: object) -> DecideFindingAcceptanceResponse200AcceptanceType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                acceptance_type_0 = DecideFindingAcceptanceResponse200AcceptanceType0.from_dict(data)



                return acceptance_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DecideFindingAcceptanceResponse200AcceptanceType0 | None | Unset, data)

        acceptance = _parse_acceptance(d.pop("acceptance", UNSET))


        def _parse_resolution(data: object) -> DecideFindingAcceptanceResponse200ResolutionType1 | DecideFindingAcceptanceResponse200ResolutionType2Type1 | DecideFindingAcceptanceResponse200ResolutionType3Type1 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                resolution_type_1 = DecideFindingAcceptanceResponse200ResolutionType1(data)



                return resolution_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                resolution_type_2_type_1 = DecideFindingAcceptanceResponse200ResolutionType2Type1(data)



                return resolution_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                resolution_type_3_type_1 = DecideFindingAcceptanceResponse200ResolutionType3Type1(data)



                return resolution_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DecideFindingAcceptanceResponse200ResolutionType1 | DecideFindingAcceptanceResponse200ResolutionType2Type1 | DecideFindingAcceptanceResponse200ResolutionType3Type1 | None | Unset, data)

        resolution = _parse_resolution(d.pop("resolution", UNSET))


        decide_finding_acceptance_response_200 = cls(
            id=id,
            title=title,
            severity=severity,
            status=status,
            cvss_score=cvss_score,
            epss_score=epss_score,
            target=target,
            affected_component=affected_component,
            tool=tool,
            template_id=template_id,
            cve_ids=cve_ids,
            cwe_ids=cwe_ids,
            scan_id=scan_id,
            detected_at=detected_at,
            confidence=confidence,
            due_date=due_date,
            sla_state=sla_state,
            frameworks=frameworks,
            cvss_vector=cvss_vector,
            description=description,
            impact=impact,
            remediation=remediation,
            evidence=evidence,
            comments=comments,
            history=history,
            kev=kev,
            assignee=assignee,
            priority=priority,
            notes=notes,
            last_seen_at=last_seen_at,
            created_at=created_at,
            updated_at=updated_at,
            due_date_source=due_date_source,
            sla_at_risk_at=sla_at_risk_at,
            acceptance=acceptance,
            resolution=resolution,
        )


        decide_finding_acceptance_response_200.additional_properties = d
        return decide_finding_acceptance_response_200

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
