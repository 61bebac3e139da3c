from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.list_findings_response_200_items_item_confidence_type_1 import ListFindingsResponse200ItemsItemConfidenceType1
from ..models.list_findings_response_200_items_item_confidence_type_2_type_1 import ListFindingsResponse200ItemsItemConfidenceType2Type1
from ..models.list_findings_response_200_items_item_confidence_type_3_type_1 import ListFindingsResponse200ItemsItemConfidenceType3Type1
from ..models.list_findings_response_200_items_item_severity import ListFindingsResponse200ItemsItemSeverity
from ..models.list_findings_response_200_items_item_sla_state_type_1 import ListFindingsResponse200ItemsItemSlaStateType1
from ..models.list_findings_response_200_items_item_sla_state_type_2_type_1 import ListFindingsResponse200ItemsItemSlaStateType2Type1
from ..models.list_findings_response_200_items_item_sla_state_type_3_type_1 import ListFindingsResponse200ItemsItemSlaStateType3Type1
from ..models.list_findings_response_200_items_item_status import ListFindingsResponse200ItemsItemStatus
from typing import cast
import datetime






T = TypeVar("T", bound="ListFindingsResponse200ItemsItem")



@_attrs_define
class ListFindingsResponse200ItemsItem:
    """ 
        Attributes:
            id (str): `finding_<id>`
            title (str):
            severity (ListFindingsResponse200ItemsItemSeverity):
            status (ListFindingsResponse200ItemsItemStatus):
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
            confidence (ListFindingsResponse200ItemsItemConfidenceType1 |
                ListFindingsResponse200ItemsItemConfidenceType2Type1 | ListFindingsResponse200ItemsItemConfidenceType3Type1 |
                None): How far the finding can be trusted without checking it by hand (added to the spec's fields): `confirmed`
                (the check observed the weakness), `version_match` (only a version range matched),
                `version_match_unverified_backport` (the version matched but the distribution revision the service shows could
                not be resolved, so a backported fix may be installed); null for findings stored before it existed
            due_date (datetime.datetime | None): The deadline: a date set with PATCH, else the organization's SLA policy
                (days per severity from detection; CISA KEV findings take the critical deadline, or KEV's own due date when
                earlier); null when none applies
            sla_state (ListFindingsResponse200ItemsItemSlaStateType1 | ListFindingsResponse200ItemsItemSlaStateType2Type1 |
                ListFindingsResponse200ItemsItemSlaStateType3Type1 | None): Where the SLA stands now (added to the spec's
                fields): `within`, `at_risk` (the last 20 % of the time from detection to due_date), `breached`; null when no
                SLA runs (no due date, or resolved, false_positive or accepted)
            frameworks (list[str]): Framework ids the finding maps to
     """

    id: str
    title: str
    severity: ListFindingsResponse200ItemsItemSeverity
    status: ListFindingsResponse200ItemsItemStatus
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
    confidence: ListFindingsResponse200ItemsItemConfidenceType1 | ListFindingsResponse200ItemsItemConfidenceType2Type1 | ListFindingsResponse200ItemsItemConfidenceType3Type1 | None
    due_date: datetime.datetime | None
    sla_state: ListFindingsResponse200ItemsItemSlaStateType1 | ListFindingsResponse200ItemsItemSlaStateType2Type1 | ListFindingsResponse200ItemsItemSlaStateType3Type1 | None
    frameworks: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
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
        if isinstance(self.confidence, ListFindingsResponse200ItemsItemConfidenceType1):
            confidence = self.confidence.value
        elif isinstance(self.confidence, ListFindingsResponse200ItemsItemConfidenceType2Type1):
            confidence = self.confidence.value
        elif isinstance(self.confidence, ListFindingsResponse200ItemsItemConfidenceType3Type1):
            confidence = self.confidence.value
        else:
            confidence = self.confidence

        due_date: None | str
        if isinstance(self.due_date, datetime.datetime):
            due_date = self.due_date.isoformat()
        else:
            due_date = self.due_date

        sla_state: None | str
        if isinstance(self.sla_state, ListFindingsResponse200ItemsItemSlaStateType1):
            sla_state = self.sla_state.value
        elif isinstance(self.sla_state, ListFindingsResponse200ItemsItemSlaStateType2Type1):
            sla_state = self.sla_state.value
        elif isinstance(self.sla_state, ListFindingsResponse200ItemsItemSlaStateType3Type1):
            sla_state = self.sla_state.value
        else:
            sla_state = self.sla_state

        frameworks = self.frameworks




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
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title")

        severity = ListFindingsResponse200ItemsItemSeverity(d.pop("severity"))




        status = ListFindingsResponse200ItemsItemStatus(d.pop("status"))




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




        def _parse_confidence(data: object) -> ListFindingsResponse200ItemsItemConfidenceType1 | ListFindingsResponse200ItemsItemConfidenceType2Type1 | ListFindingsResponse200ItemsItemConfidenceType3Type1 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                confidence_type_1 = ListFindingsResponse200ItemsItemConfidenceType1(data)



                return confidence_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                confidence_type_2_type_1 = ListFindingsResponse200ItemsItemConfidenceType2Type1(data)



                return confidence_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                confidence_type_3_type_1 = ListFindingsResponse200ItemsItemConfidenceType3Type1(data)



                return confidence_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ListFindingsResponse200ItemsItemConfidenceType1 | ListFindingsResponse200ItemsItemConfidenceType2Type1 | ListFindingsResponse200ItemsItemConfidenceType3Type1 | None, data)

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


        def _parse_sla_state(data: object) -> ListFindingsResponse200ItemsItemSlaStateType1 | ListFindingsResponse200ItemsItemSlaStateType2Type1 | ListFindingsResponse200ItemsItemSlaStateType3Type1 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sla_state_type_1 = ListFindingsResponse200ItemsItemSlaStateType1(data)



                return sla_state_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sla_state_type_2_type_1 = ListFindingsResponse200ItemsItemSlaStateType2Type1(data)



                return sla_state_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sla_state_type_3_type_1 = ListFindingsResponse200ItemsItemSlaStateType3Type1(data)



                return sla_state_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ListFindingsResponse200ItemsItemSlaStateType1 | ListFindingsResponse200ItemsItemSlaStateType2Type1 | ListFindingsResponse200ItemsItemSlaStateType3Type1 | None, data)

        sla_state = _parse_sla_state(d.pop("sla_state"))


        frameworks = cast(list[str], d.pop("frameworks"))


        list_findings_response_200_items_item = cls(
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
        )


        list_findings_response_200_items_item.additional_properties = d
        return list_findings_response_200_items_item

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
