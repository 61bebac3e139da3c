import { INFO_VECTOR, type CheckDef } from "../web/check.js";

export const OPEN_PORTS: CheckDef = {
  templateId: "net-open-ports",
  title: "Open TCP ports and identified services",
  vector: INFO_VECTOR,
  info: true,
  cweIds: [],
  tool: "portscan",
  description: "Inventory of the TCP ports that accepted a connection, with the service identified on each.",
  impact: "Every listening service is attack surface; unexpected ones often run unpatched or unmonitored.",
  remediation: {
    summary: "Expose only the services that must be reachable from this network.",
    steps: ["Compare the list with the services this host is meant to offer.", "Close or firewall the others (host firewall or security group)."],
    codeExample:
      "# nftables: allow only HTTPS and SSH from the admin network\nnft add rule inet filter input tcp dport 443 accept\nnft add rule inet filter input ip saddr 10.0.0.0/24 tcp dport 22 accept\nnft add rule inet filter input tcp dport 0-65535 drop",
    references: ["https://owasp.org/www-project-top-ten/2017/A6_2017-Security_Misconfiguration"],
  },
};

export const TELNET_EXPOSED: CheckDef = {
  templateId: "net-telnet-exposed",
  title: "Telnet service exposed",
  vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:L/A:N",
  cweIds: ["CWE-319"],
  tool: "portscan",
  description: "A telnet server answers on this port. Telnet sends credentials and the whole session in cleartext.",
  impact: "Anyone on the network path can read passwords and session contents, and hijack sessions.",
  remediation: {
    summary: "Disable telnet; use SSH for remote administration.",
    steps: [
      "Stop and disable the telnet service (inetd/xinetd/telnetd).",
      "Provide SSH with key-based authentication instead.",
      "Block TCP port 23 at the firewall.",
    ],
    codeExample: "systemctl disable --now inetd telnetd 2>/dev/null\napt-get purge telnetd\n# sshd_config\nPasswordAuthentication no",
    references: ["https://cwe.mitre.org/data/definitions/319.html", "https://www.cisa.gov/news-events/news/securing-network-infrastructure-devices"],
  },
};
