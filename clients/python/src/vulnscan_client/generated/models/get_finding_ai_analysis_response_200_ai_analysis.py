from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.get_finding_ai_analysis_response_200_ai_analysis_remediation_priority import GetFindingAiAnalysisResponse200AiAnalysisRemediationPriority
from ..models.get_finding_ai_analysis_response_200_ai_analysis_source import GetFindingAiAnalysisResponse200AiAnalysisSource
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="GetFindingAiAnalysisResponse200AiAnalysis")



@_attrs_define
class GetFindingAiAnalysisResponse200AiAnalysis:
    """ 
        Attributes:
            risk_assessment (str):
            attack_scenarios (list[str]):
            remediation_priority (GetFindingAiAnalysisResponse200AiAnalysisRemediationPriority):
            recommended_actions (list[str]):
            automation_available (bool):
            ansible_playbook_id (str):
            category (str | Unset): The one category the finding was classified in, from the check that produced it (e.g.
                unauthenticated-service, vulnerable-version)
            source (GetFindingAiAnalysisResponse200AiAnalysisSource | Unset): Which path wrote the analysis: the built-in
                rules, the configured model, or the built-in rules after the model's answer was refused
            source_detail (str | Unset): The provider's id; for builtin_fallback also why the model's answer was refused
     """

    risk_assessment: str
    attack_scenarios: list[str]
    remediation_priority: GetFindingAiAnalysisResponse200AiAnalysisRemediationPriority
    recommended_actions: list[str]
    automation_available: bool
    ansible_playbook_id: str
    category: str | Unset = UNSET
    source: GetFindingAiAnalysisResponse200AiAnalysisSource | Unset = UNSET
    source_detail: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        risk_assessment = self.risk_assessment

        attack_scenarios = self.attack_scenarios



        remediation_priority = self.remediation_priority.value

        recommended_actions = self.recommended_actions



        automation_available = self.automation_available

        ansible_playbook_id = self.ansible_playbook_id

        category = self.category

        source: str | Unset = UNSET
        if not isinstance(self.source, Unset):
            source = self.source.value


        source_detail = self.source_detail


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "risk_assessment": risk_assessment,
            "attack_scenarios": attack_scenarios,
            "remediation_priority": remediation_priority,
            "recommended_actions": recommended_actions,
            "automation_available": automation_available,
            "ansible_playbook_id": ansible_playbook_id,
        })
        if category is not UNSET:
            field_dict["category"] = category
        if source is not UNSET:
            field_dict["source"] = source
        if source_detail is not UNSET:
            field_dict["source_detail"] = source_detail

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        risk_assessment = d.pop("risk_assessment")

        attack_scenarios = cast(list[str], d.pop("attack_scenarios"))


        remediation_priority = GetFindingAiAnalysisResponse200AiAnalysisRemediationPriority(d.pop("remediation_priority"))




        recommended_actions = cast(list[str], d.pop("recommended_actions"))


        automation_available = d.pop("automation_available")

        ansible_playbook_id = d.pop("ansible_playbook_id")

        category = d.pop("category", UNSET)

        _source = d.pop("source", UNSET)
        source: GetFindingAiAnalysisResponse200AiAnalysisSource | Unset
        if isinstance(_source,  Unset):
            source = UNSET
        else:
            source = GetFindingAiAnalysisResponse200AiAnalysisSource(_source)




        source_detail = d.pop("source_detail", UNSET)

        get_finding_ai_analysis_response_200_ai_analysis = cls(
            risk_assessment=risk_assessment,
            attack_scenarios=attack_scenarios,
            remediation_priority=remediation_priority,
            recommended_actions=recommended_actions,
            automation_available=automation_available,
            ansible_playbook_id=ansible_playbook_id,
            category=category,
            source=source,
            source_detail=source_detail,
        )


        get_finding_ai_analysis_response_200_ai_analysis.additional_properties = d
        return get_finding_ai_analysis_response_200_ai_analysis

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
