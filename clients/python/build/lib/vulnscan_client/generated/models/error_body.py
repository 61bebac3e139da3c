from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.error_body_errors_item import ErrorBodyErrorsItem





T = TypeVar("T", bound="ErrorBody")



@_attrs_define
class ErrorBody:
    """ The spec's error body. `detail`, `error_code` and (for validation errors) `field` are the contract; a 422 from
    request validation also lists every field error in `errors`, the first of them repeated in `detail` and `field`.

        Attributes:
            detail (str): What went wrong, in plain words
            error_code (str): Machine-readable code, e.g. VALIDATION_ERROR (each operation lists the codes it can answer)
            field (str | Unset): The request field at fault (validation errors)
            errors (list[ErrorBodyErrorsItem] | Unset): Every field error of the request (422 VALIDATION_ERROR from request
                validation)
     """

    detail: str
    error_code: str
    field: str | Unset = UNSET
    errors: list[ErrorBodyErrorsItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.error_body_errors_item import ErrorBodyErrorsItem # noqa: PLC0415
        detail = self.detail

        error_code = self.error_code

        field = self.field

        errors: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.errors, Unset):
            errors = []
            for errors_item_data in self.errors:
                errors_item = errors_item_data.to_dict()
                errors.append(errors_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "detail": detail,
            "error_code": error_code,
        })
        if field is not UNSET:
            field_dict["field"] = field
        if errors is not UNSET:
            field_dict["errors"] = errors

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_body_errors_item import ErrorBodyErrorsItem # noqa: PLC0415
        d = dict(src_dict)
        detail = d.pop("detail")

        error_code = d.pop("error_code")

        field = d.pop("field", UNSET)

        _errors = d.pop("errors", UNSET)
        errors: list[ErrorBodyErrorsItem] | Unset = UNSET
        if _errors is not UNSET:
            errors = []
            for errors_item_data in _errors:
                errors_item = ErrorBodyErrorsItem.from_dict(errors_item_data)



                errors.append(errors_item)


        error_body = cls(
            detail=detail,
            error_code=error_code,
            field=field,
            errors=errors,
        )


        error_body.additional_properties = d
        return error_body

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
