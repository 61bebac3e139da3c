import { describe, expect, it } from "vitest";
import { classification, componentLocation, foldConfidence, normalisePath, weaknessKey } from "./identity.js";

const d = (templateId: string, affectedComponent: string, cveIds: string[] = [], tool = "templates") => ({
  templateId,
  affectedComponent,
  cveIds,
  tool,
  target: "Weak.Test",
});

describe("weakness identity", () => {
  it("reads port and location from every engine's component format", () => {
    expect(componentLocation("http://weak.test/.env")).toEqual({ port: "80", path: "/.env" });
    expect(componentLocation("https://weak.test:8443/files/")).toEqual({ port: "8443", path: "/files" });
    expect(componentLocation("http://weak.test:9200/")).toEqual(componentLocation("elasticsearch 6.8 on 10.0.0.2:9200"));
    expect(componentLocation("tcp://weak.test:6379")).toEqual({ port: "6379", path: "" });
    expect(componentLocation("tls://[::1]:6380")).toEqual({ port: "6380", path: "" });
    expect(componentLocation("redis 7.0.1 on 10.0.0.2:6379")).toEqual({ port: "6379", path: "" });
    expect(componentLocation("10.0.0.2")).toEqual({ port: "", path: "10.0.0.2" });
  });

  it("normalises locations: root, trailing slash, version-control files", () => {
    expect(normalisePath("")).toBe("");
    expect(normalisePath("/")).toBe("");
    expect(normalisePath("/files/")).toBe("/files");
    expect(normalisePath("/.git/HEAD")).toBe("/.git/");
    expect(normalisePath("/app/.git/config")).toBe("/app/.git/");
    expect(normalisePath("/.gitignore")).toBe("/.gitignore");
  });

  it("classifies by the one CVE a detection names, else by template id; correlation notes stay apart", () => {
    expect(classification(d("vsftpd-234-backdoor", "tcp://h:21", ["CVE-2011-2523"]))).toBe("cve:CVE-2011-2523");
    expect(classification(d("cve:CVE-2011-2523", "vsftpd 2.3.4 on h:21", ["CVE-2011-2523"], "cve-match"))).toBe("cve:CVE-2011-2523");
    expect(classification(d("cve-multi", "CVE-2011-2523", ["CVE-2011-2523"], "correlator"))).toBe("cve-multi");
    expect(classification(d("X-Check", "c", ["CVE-1", "CVE-2"]))).toBe("x-check");
  });

  it("gives equal keys to one weakness on one component, different keys otherwise", () => {
    expect(weaknessKey(d("env-file-secrets", "http://weak.test:80/.env"))).toBe(weaknessKey({ ...d("env-file-secrets", "http://10.0.0.2/.env"), tool: "web" }));
    expect(weaknessKey(d("redis-unauthenticated", "tcp://weak.test:6379"))).toBe(weaknessKey(d("redis-unauthenticated", "redis 7 on 10.0.0.2:6379")));
    expect(weaknessKey(d("env-file-secrets", "http://weak.test/.env"))).not.toBe(weaknessKey(d("env-file-secrets", "http://weak.test:8080/.env")));
    expect(weaknessKey(d("env-file-secrets", "http://weak.test/.env"))).not.toBe(weaknessKey(d("git-repository-exposure", "http://weak.test/.env")));
  });
});

describe("confidence of a folded finding", () => {
  it("is confirmed when any detector observed it, else the least sure version inference", () => {
    expect(foldConfidence(["version_match", "confirmed"])).toBe("confirmed");
    expect(foldConfidence(["version_match_unverified_backport", "confirmed"])).toBe("confirmed");
    // A banner template (version_match) folded into a match whose distribution revision was not resolved.
    expect(foldConfidence(["version_match_unverified_backport", "version_match"])).toBe("version_match_unverified_backport");
    expect(foldConfidence(["version_match", "version_match"])).toBe("version_match");
  });
});
