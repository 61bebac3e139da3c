from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.get_finding_stats_response_200_by_severity import GetFindingStatsResponse200BySeverity
  from ..models.get_finding_stats_response_200_by_status import GetFindingStatsResponse200ByStatus
  from ..models.get_finding_stats_response_200_by_tool import GetFindingStatsResponse200ByTool
  from ..models.get_finding_stats_response_200_sla import GetFindingStatsResponse200Sla
  from ..models.get_finding_stats_response_200_trends import GetFindingStatsResponse200Trends





T = TypeVar("T", bound="GetFindingStatsResponse200")



@_attrs_define
class GetFindingStatsResponse200:
    """ 
        Attributes:
            total (int):
            by_severity (GetFindingStatsResponse200BySeverity):
            by_status (GetFindingStatsResponse200ByStatus):
            by_tool (GetFindingStatsResponse200ByTool):
            trends (GetFindingStatsResponse200Trends):
            sla (GetFindingStatsResponse200Sla): Open and in-progress findings past their due date, and in its last 20 %,
                right now (added to the spec's fields)
     """

    total: int
    by_severity: GetFindingStatsResponse200BySeverity
    by_status: GetFindingStatsResponse200ByStatus
    by_tool: GetFindingStatsResponse200ByTool
    trends: GetFindingStatsResponse200Trends
    sla: GetFindingStatsResponse200Sla
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.get_finding_stats_response_200_by_severity import GetFindingStatsResponse200BySeverity # noqa: PLC0415
        from ..models.get_finding_stats_response_200_by_status import GetFindingStatsResponse200ByStatus # noqa: PLC0415
        from ..models.get_finding_stats_response_200_by_tool import GetFindingStatsResponse200ByTool # noqa: PLC0415
        from ..models.get_finding_stats_response_200_sla import GetFindingStatsResponse200Sla # noqa: PLC0415
        from ..models.get_finding_stats_response_200_trends import GetFindingStatsResponse200Trends # noqa: PLC0415
        total = self.total

        by_severity = self.by_severity.to_dict()

        by_status = self.by_status.to_dict()

        by_tool = self.by_tool.to_dict()

        trends = self.trends.to_dict()

        sla = self.sla.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "total": total,
            "by_severity": by_severity,
            "by_status": by_status,
            "by_tool": by_tool,
            "trends": trends,
            "sla": sla,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.get_finding_stats_response_200_by_severity import GetFindingStatsResponse200BySeverity # noqa: PLC0415
        from ..models.get_finding_stats_response_200_by_status import GetFindingStatsResponse200ByStatus # noqa: PLC0415
        from ..models.get_finding_stats_response_200_by_tool import GetFindingStatsResponse200ByTool # noqa: PLC0415
        from ..models.get_finding_stats_response_200_sla import GetFindingStatsResponse200Sla # noqa: PLC0415
        from ..models.get_finding_stats_response_200_trends import GetFindingStatsResponse200Trends # noqa: PLC0415
        d = dict(src_dict)
        total = d.pop("total")

        by_severity = GetFindingStatsResponse200BySeverity.from_dict(d.pop("by_severity"))




        by_status = GetFindingStatsResponse200ByStatus.from_dict(d.pop("by_status"))




        by_tool = GetFindingStatsResponse200ByTool.from_dict(d.pop("by_tool"))




        trends = GetFindingStatsResponse200Trends.from_dict(d.pop("trends"))




        sla = GetFindingStatsResponse200Sla.from_dict(d.pop("sla"))




        get_finding_stats_response_200 = cls(
            total=total,
            by_severity=by_severity,
            by_status=by_status,
            by_tool=by_tool,
            trends=trends,
            sla=sla,
        )


        get_finding_stats_response_200.additional_properties = d
        return get_finding_stats_response_200

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
