from enum import StrEnum

class CreateApiKeyResponse201PermissionsItem(StrEnum):
    READFINDINGS = "read:findings"
    READGRC = "read:grc"
    READSCANS = "read:scans"
    WRITEFINDINGS = "write:findings"
    WRITEGRC = "write:grc"
    WRITESCANS = "write:scans"

    def __str__(self) -> str:
        return str(self.value)
