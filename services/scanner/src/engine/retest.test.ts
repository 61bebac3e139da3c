import { describe, expect, it } from "vitest";
import { checkKindOf, sameWeakness } from "./retest.js";

describe("retest: which check, and the same weakness", () => {
  it("picks the engine from the finding's tool and template id", () => {
    expect(checkKindOf("templates", "redis-unauthenticated")).toBe("template");
    expect(checkKindOf("cve-match", "cve:CVE-2016-6210")).toBe("cve");
    expect(checkKindOf("templates", "cve:CVE-2011-2523")).toBe("cve");
    expect(checkKindOf("tls", "tls-protocol-tls10")).toBe("tls");
    expect(checkKindOf("ssh", "ssh-weak-kex")).toBe("ssh");
    expect(checkKindOf("web", "http-missing-hsts")).toBe("web");
    expect(checkKindOf("datastores", "datastore-mongodb-unauthenticated")).toBe("datastore");
    expect(checkKindOf("portscan", "net-telnet-exposed")).toBe("telnet");
    expect(checkKindOf("portscan", "net-open-ports")).toBeUndefined();
    expect(checkKindOf("correlator", "correlation-admin-exposure")).toBeUndefined();
  });

  it("matches the finding's check on its component whatever string the engine writes", () => {
    const spec = { templateId: "git-repository-exposure", affectedComponent: "http://10.0.0.5:80/.git/" };
    expect(sameWeakness({ templateId: "git-repository-exposure", cveIds: [], affectedComponent: "http://weak.test:80/.git/config" }, spec)).toBe(true);
    expect(sameWeakness({ templateId: "git-repository-exposure", cveIds: [], affectedComponent: "http://10.0.0.5:8080/.git/" }, spec)).toBe(false);
    expect(sameWeakness({ templateId: "env-file-secrets", cveIds: [], affectedComponent: "http://10.0.0.5:80/.git/" }, spec)).toBe(false);
    const cve = { templateId: "cve:CVE-2011-2523", affectedComponent: "vsftpd 2.3.4 on 10.0.0.5:21" };
    expect(sameWeakness({ templateId: "vsftpd-234-backdoor", cveIds: ["CVE-2011-2523"], affectedComponent: "tcp://10.0.0.5:21" }, cve)).toBe(true);
    expect(sameWeakness({ templateId: "vsftpd-234-backdoor", cveIds: ["CVE-2011-2523"], affectedComponent: "tcp://10.0.0.5:2121" }, cve)).toBe(false);
  });
});
