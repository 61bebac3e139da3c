from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.get_finding_ai_analysis_response_200_ai_analysis import GetFindingAiAnalysisResponse200AiAnalysis





T = TypeVar("T", bound="GetFindingAiAnalysisResponse200")



@_attrs_define
class GetFindingAiAnalysisResponse200:
    """ 
        Attributes:
            finding_id (str):
            ai_analysis (GetFindingAiAnalysisResponse200AiAnalysis):
            ai_credits_used (int): Credits this request used: 1, or 0 when answered from cache
            ai_credits_remaining (int | Unset): Credits left this month (0 on unlimited plans)
     """

    finding_id: str
    ai_analysis: GetFindingAiAnalysisResponse200AiAnalysis
    ai_credits_used: int
    ai_credits_remaining: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.get_finding_ai_analysis_response_200_ai_analysis import GetFindingAiAnalysisResponse200AiAnalysis # noqa: PLC0415
        finding_id = self.finding_id

        ai_analysis = self.ai_analysis.to_dict()

        ai_credits_used = self.ai_credits_used

        ai_credits_remaining = self.ai_credits_remaining


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "finding_id": finding_id,
            "ai_analysis": ai_analysis,
            "ai_credits_used": ai_credits_used,
        })
        if ai_credits_remaining is not UNSET:
            field_dict["ai_credits_remaining"] = ai_credits_remaining

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.get_finding_ai_analysis_response_200_ai_analysis import GetFindingAiAnalysisResponse200AiAnalysis # noqa: PLC0415
        d = dict(src_dict)
        finding_id = d.pop("finding_id")

        ai_analysis = GetFindingAiAnalysisResponse200AiAnalysis.from_dict(d.pop("ai_analysis"))




        ai_credits_used = d.pop("ai_credits_used")

        ai_credits_remaining = d.pop("ai_credits_remaining", UNSET)

        get_finding_ai_analysis_response_200 = cls(
            finding_id=finding_id,
            ai_analysis=ai_analysis,
            ai_credits_used=ai_credits_used,
            ai_credits_remaining=ai_credits_remaining,
        )


        get_finding_ai_analysis_response_200.additional_properties = d
        return get_finding_ai_analysis_response_200

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
