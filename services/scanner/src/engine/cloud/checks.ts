import { INFO_VECTOR, type CheckDef } from "../web/check.js";

export const PROVIDER_NAMES = { aws: "Amazon Web Services", gcp: "Google Cloud", azure: "Microsoft Azure", cloudflare: "Cloudflare" } as const;

export const CLOUD_ATTRIBUTION: CheckDef = {
  templateId: "cloud-provider-attribution",
  title: "Host is in a cloud provider's published IP range",
  vector: INFO_VECTOR,
  info: true,
  cweIds: [],
  tool: "cloud",
  description: "The address belongs to a range the provider publishes for its services.",
  impact: "Tells which provider's controls (security groups, WAF, logging) govern this host, and who to involve for remediation.",
  remediation: {
    summary: "No action needed; make sure the asset is in the cloud inventory of its owner.",
    steps: ["Confirm the account and owner of this resource.", "Review its security group / firewall rules against the open ports found."],
    codeExample:
      'aws ec2 describe-network-interfaces --filters Name=addresses.private-ip-address,Values=<ip>\ngcloud compute addresses list --filter="address=<ip>"',
    references: ["https://docs.aws.amazon.com/vpc/latest/userguide/aws-ip-ranges.html", "https://cloud.google.com/compute/docs/faq#find_ip_range"],
  },
};
