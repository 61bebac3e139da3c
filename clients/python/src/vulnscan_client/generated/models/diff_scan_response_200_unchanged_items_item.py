from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.diff_scan_response_200_unchanged_items_item_reason_type_1 import DiffScanResponse200UnchangedItemsItemReasonType1
from ..models.diff_scan_response_200_unchanged_items_item_reason_type_2_type_1 import DiffScanResponse200UnchangedItemsItemReasonType2Type1
from ..models.diff_scan_response_200_unchanged_items_item_reason_type_3_type_1 import DiffScanResponse200UnchangedItemsItemReasonType3Type1
from ..models.diff_scan_response_200_unchanged_items_item_severity import DiffScanResponse200UnchangedItemsItemSeverity
from typing import cast






T = TypeVar("T", bound="DiffScanResponse200UnchangedItemsItem")



@_attrs_define
class DiffScanResponse200UnchangedItemsItem:
    """ 
        Attributes:
            finding_id (str):
            title (str):
            severity (DiffScanResponse200UnchangedItemsItemSeverity):
            status (str): The finding's status now
            target (str):
            affected_component (str):
            template_id (str):
            tool (str):
            reason (DiffScanResponse200UnchangedItemsItemReasonType1 | DiffScanResponse200UnchangedItemsItemReasonType2Type1
                | DiffScanResponse200UnchangedItemsItemReasonType3Type1 | None): For `not_covered`, why the newer scan did not
                cover the check: `host_down` (the host did not answer), `port_not_open` (the port was closed, filtered or not in
                the scan's ports), `no_answer` (the port accepted connections and said nothing), `check_not_run` (the check was
                not run against the component: a phase skipped, cut short or not in the scan type, a check that failed),
                `no_coverage` (the scan recorded no coverage); null in the other buckets
     """

    finding_id: str
    title: str
    severity: DiffScanResponse200UnchangedItemsItemSeverity
    status: str
    target: str
    affected_component: str
    template_id: str
    tool: str
    reason: DiffScanResponse200UnchangedItemsItemReasonType1 | DiffScanResponse200UnchangedItemsItemReasonType2Type1 | DiffScanResponse200UnchangedItemsItemReasonType3Type1 | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        finding_id = self.finding_id

        title = self.title

        severity = self.severity.value

        status = self.status

        target = self.target

        affected_component = self.affected_component

        template_id = self.template_id

        tool = self.tool

        reason: None | str
        if isinstance(self.reason, DiffScanResponse200UnchangedItemsItemReasonType1):
            reason = self.reason.value
        elif isinstance(self.reason, DiffScanResponse200UnchangedItemsItemReasonType2Type1):
            reason = self.reason.value
        elif isinstance(self.reason, DiffScanResponse200UnchangedItemsItemReasonType3Type1):
            reason = self.reason.value
        else:
            reason = self.reason


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "finding_id": finding_id,
            "title": title,
            "severity": severity,
            "status": status,
            "target": target,
            "affected_component": affected_component,
            "template_id": template_id,
            "tool": tool,
            "reason": reason,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        finding_id = d.pop("finding_id")

        title = d.pop("title")

        severity = DiffScanResponse200UnchangedItemsItemSeverity(d.pop("severity"))




        status = d.pop("status")

        target = d.pop("target")

        affected_component = d.pop("affected_component")

        template_id = d.pop("template_id")

        tool = d.pop("tool")

        def _parse_reason(data: object) -> DiffScanResponse200UnchangedItemsItemReasonType1 | DiffScanResponse200UnchangedItemsItemReasonType2Type1 | DiffScanResponse200UnchangedItemsItemReasonType3Type1 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_1 = DiffScanResponse200UnchangedItemsItemReasonType1(data)



                return reason_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_2_type_1 = DiffScanResponse200UnchangedItemsItemReasonType2Type1(data)



                return reason_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_3_type_1 = DiffScanResponse200UnchangedItemsItemReasonType3Type1(data)



                return reason_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DiffScanResponse200UnchangedItemsItemReasonType1 | DiffScanResponse200UnchangedItemsItemReasonType2Type1 | DiffScanResponse200UnchangedItemsItemReasonType3Type1 | None, data)

        reason = _parse_reason(d.pop("reason"))


        diff_scan_response_200_unchanged_items_item = cls(
            finding_id=finding_id,
            title=title,
            severity=severity,
            status=status,
            target=target,
            affected_component=affected_component,
            template_id=template_id,
            tool=tool,
            reason=reason,
        )


        diff_scan_response_200_unchanged_items_item.additional_properties = d
        return diff_scan_response_200_unchanged_items_item

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
