from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.list_scan_findings_response_200_items_item_confidence_type_1 import ListScanFindingsResponse200ItemsItemConfidenceType1
from ..models.list_scan_findings_response_200_items_item_confidence_type_2_type_1 import ListScanFindingsResponse200ItemsItemConfidenceType2Type1
from ..models.list_scan_findings_response_200_items_item_confidence_type_3_type_1 import ListScanFindingsResponse200ItemsItemConfidenceType3Type1
from ..models.list_scan_findings_response_200_items_item_severity import ListScanFindingsResponse200ItemsItemSeverity
from ..models.list_scan_findings_response_200_items_item_status import ListScanFindingsResponse200ItemsItemStatus
from typing import cast
import datetime






T = TypeVar("T", bound="ListScanFindingsResponse200ItemsItem")



@_attrs_define
class ListScanFindingsResponse200ItemsItem:
    """ 
        Attributes:
            id (str): `finding_<id>`
            title (str):
            severity (ListScanFindingsResponse200ItemsItemSeverity):
            cvss_score (float):
            status (ListScanFindingsResponse200ItemsItemStatus):
            tool (str): Detection tool
            affected_component (str):
            description (str):
            remediation (str): Remediation summary
            cve_ids (list[str]):
            detected_at (datetime.datetime):
            confidence (ListScanFindingsResponse200ItemsItemConfidenceType1 |
                ListScanFindingsResponse200ItemsItemConfidenceType2Type1 |
                ListScanFindingsResponse200ItemsItemConfidenceType3Type1 | None): How far the finding can be trusted without
                checking it by hand (added to the spec's fields): `confirmed` (the check observed the weakness), `version_match`
                (only a version range matched), `version_match_unverified_backport` (the version matched but the distribution
                revision the service shows could not be resolved, so a backported fix may be installed); null for findings
                stored before it existed
     """

    id: str
    title: str
    severity: ListScanFindingsResponse200ItemsItemSeverity
    cvss_score: float
    status: ListScanFindingsResponse200ItemsItemStatus
    tool: str
    affected_component: str
    description: str
    remediation: str
    cve_ids: list[str]
    detected_at: datetime.datetime
    confidence: ListScanFindingsResponse200ItemsItemConfidenceType1 | ListScanFindingsResponse200ItemsItemConfidenceType2Type1 | ListScanFindingsResponse200ItemsItemConfidenceType3Type1 | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        title = self.title

        severity = self.severity.value

        cvss_score = self.cvss_score

        status = self.status.value

        tool = self.tool

        affected_component = self.affected_component

        description = self.description

        remediation = self.remediation

        cve_ids = self.cve_ids



        detected_at = self.detected_at.isoformat()

        confidence: None | str
        if isinstance(self.confidence, ListScanFindingsResponse200ItemsItemConfidenceType1):
            confidence = self.confidence.value
        elif isinstance(self.confidence, ListScanFindingsResponse200ItemsItemConfidenceType2Type1):
            confidence = self.confidence.value
        elif isinstance(self.confidence, ListScanFindingsResponse200ItemsItemConfidenceType3Type1):
            confidence = self.confidence.value
        else:
            confidence = self.confidence


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "title": title,
            "severity": severity,
            "cvss_score": cvss_score,
            "status": status,
            "tool": tool,
            "affected_component": affected_component,
            "description": description,
            "remediation": remediation,
            "cve_ids": cve_ids,
            "detected_at": detected_at,
            "confidence": confidence,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title")

        severity = ListScanFindingsResponse200ItemsItemSeverity(d.pop("severity"))




        cvss_score = d.pop("cvss_score")

        status = ListScanFindingsResponse200ItemsItemStatus(d.pop("status"))




        tool = d.pop("tool")

        affected_component = d.pop("affected_component")

        description = d.pop("description")

        remediation = d.pop("remediation")

        cve_ids = cast(list[str], d.pop("cve_ids"))


        detected_at = datetime.datetime.fromisoformat(d.pop("detected_at"))




        def _parse_confidence(data: object) -> ListScanFindingsResponse200ItemsItemConfidenceType1 | ListScanFindingsResponse200ItemsItemConfidenceType2Type1 | ListScanFindingsResponse200ItemsItemConfidenceType3Type1 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                confidence_type_1 = ListScanFindingsResponse200ItemsItemConfidenceType1(data)



                return confidence_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                confidence_type_2_type_1 = ListScanFindingsResponse200ItemsItemConfidenceType2Type1(data)



                return confidence_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                confidence_type_3_type_1 = ListScanFindingsResponse200ItemsItemConfidenceType3Type1(data)



                return confidence_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ListScanFindingsResponse200ItemsItemConfidenceType1 | ListScanFindingsResponse200ItemsItemConfidenceType2Type1 | ListScanFindingsResponse200ItemsItemConfidenceType3Type1 | None, data)

        confidence = _parse_confidence(d.pop("confidence"))


        list_scan_findings_response_200_items_item = cls(
            id=id,
            title=title,
            severity=severity,
            cvss_score=cvss_score,
            status=status,
            tool=tool,
            affected_component=affected_component,
            description=description,
            remediation=remediation,
            cve_ids=cve_ids,
            detected_at=detected_at,
            confidence=confidence,
        )


        list_scan_findings_response_200_items_item.additional_properties = d
        return list_scan_findings_response_200_items_item

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
