from enum import StrEnum

class GetTargetResponse200AttemptsItemMethod(StrEnum):
    ATTESTATION = "attestation"
    DNS_TXT = "dns_txt"
    HTTP_FILE = "http_file"
    REVERSE_DNS = "reverse_dns"

    def __str__(self) -> str:
        return str(self.value)
