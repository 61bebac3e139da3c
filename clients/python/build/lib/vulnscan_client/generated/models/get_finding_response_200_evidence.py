from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="GetFindingResponse200Evidence")



@_attrs_define
class GetFindingResponse200Evidence:
    """ 
        Attributes:
            request (str):
            response (str):
            screenshot_url (None | str):
     """

    request: str
    response: str
    screenshot_url: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        request = self.request

        response = self.response

        screenshot_url: None | str
        screenshot_url = self.screenshot_url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "request": request,
            "response": response,
            "screenshot_url": screenshot_url,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        request = d.pop("request")

        response = d.pop("response")

        def _parse_screenshot_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        screenshot_url = _parse_screenshot_url(d.pop("screenshot_url"))


        get_finding_response_200_evidence = cls(
            request=request,
            response=response,
            screenshot_url=screenshot_url,
        )


        get_finding_response_200_evidence.additional_properties = d
        return get_finding_response_200_evidence

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
