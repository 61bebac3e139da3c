from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field
import json
from .. import types

from ..types import UNSET, Unset

from ..types import File, FileTypes
from ..types import UNSET, Unset
from io import BytesIO
from typing import cast






T = TypeVar("T", bound="UploadEvidenceBody")



@_attrs_define
class UploadEvidenceBody:
    """ 
        Attributes:
            file (File): The evidence file, 1 byte to 10 MiB
            title (str | Unset):
            description (str | Unset):
            expires_at (Any | Unset): RFC 3339 date or date-time; empty means none
            observed_from (Any | Unset): RFC 3339 date or date-time; empty means none
            observed_to (Any | Unset): RFC 3339 date or date-time; empty means none
     """

    file: File
    title: str | Unset = UNSET
    description: str | Unset = UNSET
    expires_at: Any | Unset = UNSET
    observed_from: Any | Unset = UNSET
    observed_to: Any | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        file = self.file.to_tuple()


        title = self.title

        description = self.description

        expires_at: Any | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        else:
            expires_at = self.expires_at

        observed_from: Any | Unset
        if isinstance(self.observed_from, Unset):
            observed_from = UNSET
        else:
            observed_from = self.observed_from

        observed_to: Any | Unset
        if isinstance(self.observed_to, Unset):
            observed_to = UNSET
        else:
            observed_to = self.observed_to


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "file": file,
        })
        if title is not UNSET:
            field_dict["title"] = title
        if description is not UNSET:
            field_dict["description"] = description
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if observed_from is not UNSET:
            field_dict["observed_from"] = observed_from
        if observed_to is not UNSET:
            field_dict["observed_to"] = observed_to

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("file", self.file.to_tuple()))



        if not isinstance(self.title, Unset):
            files.append(("title", (None, str(self.title).encode(), "text/plain")))



        if not isinstance(self.description, Unset):
            files.append(("description", (None, str(self.description).encode(), "text/plain")))



        if not isinstance(self.expires_at, Unset):
            if isinstance(self.expires_at, Any):

                files.append(("expires_at", (None, str(self.expires_at).encode(), "text/plain")))


        if not isinstance(self.observed_from, Unset):
            if isinstance(self.observed_from, Any):

                files.append(("observed_from", (None, str(self.observed_from).encode(), "text/plain")))


        if not isinstance(self.observed_to, Unset):
            if isinstance(self.observed_to, Any):

                files.append(("observed_to", (None, str(self.observed_to).encode(), "text/plain")))



        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))



        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file = File(
             payload = BytesIO(d.pop("file"))
        )




        title = d.pop("title", UNSET)

        description = d.pop("description", UNSET)

        def _parse_expires_at(data: object) -> Any | Unset:
            if isinstance(data, Unset):
                return data
            return cast(Any | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))


        def _parse_observed_from(data: object) -> Any | Unset:
            if isinstance(data, Unset):
                return data
            return cast(Any | Unset, data)

        observed_from = _parse_observed_from(d.pop("observed_from", UNSET))


        def _parse_observed_to(data: object) -> Any | Unset:
            if isinstance(data, Unset):
                return data
            return cast(Any | Unset, data)

        observed_to = _parse_observed_to(d.pop("observed_to", UNSET))


        upload_evidence_body = cls(
            file=file,
            title=title,
            description=description,
            expires_at=expires_at,
            observed_from=observed_from,
            observed_to=observed_to,
        )


        upload_evidence_body.additional_properties = d
        return upload_evidence_body

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
