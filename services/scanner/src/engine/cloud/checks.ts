import { check } from "../catalogue.js";

export const PROVIDER_NAMES = { aws: "Amazon Web Services", gcp: "Google Cloud", azure: "Microsoft Azure", cloudflare: "Cloudflare" } as const;

/* The check's text is data in services/scanner/checks/cloud.yaml. */
export const CLOUD_ATTRIBUTION = check("cloud-provider-attribution");
