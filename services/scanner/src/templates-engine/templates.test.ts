import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../engine/types.js";
import { IntelStore } from "../intel/store.js";
import { DEFAULT_INTEL_DIR } from "../config.js";
import { EgressGuard } from "../net/egress.js";
import { appliesTo, hitToDraft, redact, runTemplate } from "./execute.js";
import { loadTemplates, parseTemplate, TemplateError } from "./loader.js";
import { extract, httpResponse, matcherMatches, probeMatches, socketResponse } from "./matchers.js";
import type { Matcher, Template } from "./schema.js";

let catalogue: Template[];
const byId = (id: string) => catalogue.find((t) => t.id === id)!;
beforeAll(async () => {
  catalogue = await loadTemplates();
});

const minimal = (extra: string) => `
id: test-template
name: Test template
severity: medium
description: A template used by the unit tests.
remediation:
  summary: Fix it.
classification:
  cwe: [CWE-200]
  cvss_vector: CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N
  cvss_score: 5.3
${extra}`;

describe("the shipped catalogue", () => {
  it("has at least 12 valid templates with unique ids and complete classification", () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(12);
    expect(new Set(catalogue.map((t) => t.id)).size).toBe(catalogue.length);
    for (const t of catalogue) {
      if (t.severity === "info") continue;
      expect(t.classification.cwe.length, t.id).toBeGreaterThan(0);
      expect(t.classification.cvss_vector, t.id).toMatch(/^CVSS:3\.1\//);
    }
    expect(catalogue.map((t) => t.id)).toEqual(
      expect.arrayContaining([
        "git-repository-exposure",
        "env-file-secrets",
        "phpinfo-exposure",
        "apache-server-status",
        "spring-boot-actuator-env",
        "openapi-docs-exposed",
        "directory-listing",
        "nginx-default-page",
        "apache-default-page",
        "redis-unauthenticated",
        "memcached-unauthenticated",
        "vsftpd-234-backdoor",
        "openssh-user-enumeration",
        "elasticsearch-unauthenticated",
        "jenkins-login-exposed",
        "grafana-login-exposed",
      ]),
    );
  });

  it("names CVEs the intelligence sample knows, with the same CVSS", async () => {
    const intel = await IntelStore.load(DEFAULT_INTEL_DIR);
    for (const t of catalogue)
      for (const cve of t.classification.cve) {
        expect(intel.cve(cve), `${t.id}: ${cve}`).toBeDefined();
        expect(intel.cve(cve)?.cvss?.score, `${t.id}: ${cve}`).toBe(t.classification.cvss_score);
      }
  });
});

describe("template validation", () => {
  it("accepts a minimal HTTP template and fills defaults", () => {
    const t = parseTemplate(minimal("http:\n  - path: /x\n    matchers:\n      - type: status\n        status: 200\n"));
    expect(t.http?.[0]).toMatchObject({
      method: "GET",
      path: ["/x"],
      matchers_condition: "and",
      matchers: [{ type: "status", status: [200], negative: false }],
    });
    expect(t.remediation).toEqual({ summary: "Fix it.", steps: [], code_example: "", references: [] });
  });

  it.each([
    ["no probe", "", /at least one http, tcp or tls probe/],
    ["score not matching the vector", "http:\n  - path: /x\n    matchers:\n      - type: status\n        status: 200\n", null],
    ["bad regex", "http:\n  - path: /x\n    matchers:\n      - type: regex\n        regex: '(['\n", /invalid regex/],
    ["tcp without a service selector", "tcp:\n  - inputs:\n      - data: PING\n    matchers:\n      - type: word\n        words: [PONG]\n", /services/],
    ["socket probe that neither sends nor reads", "services:\n  ports: [1]\ntcp:\n  - matchers:\n      - type: word\n        words: [x]\n", /read_banner/],
    ["unknown matcher type", "http:\n  - path: /x\n    matchers:\n      - type: xpath\n", /matchers/],
    ["bad dsl", "http:\n  - path: /x\n    matchers:\n      - type: dsl\n        dsl: ['rm -rf /']\n", /expression like/],
    ["unknown field", "http:\n  - path: /x\n    foo: 1\n    matchers:\n      - type: status\n        status: 200\n", /foo|Unrecognized/],
  ])("rejects %s", (_name, extra, message) => {
    if (message === null) {
      const yaml = minimal(extra).replace("cvss_score: 5.3", "cvss_score: 7.5");
      expect(() => parseTemplate(yaml, "bad.yaml")).toThrow(/bad\.yaml: .*vector computes to 5\.3/);
      return;
    }
    expect(() => parseTemplate(minimal(extra))).toThrow(TemplateError);
    expect(() => parseTemplate(minimal(extra))).toThrow(message);
  });

  it("rejects invalid YAML and duplicate keys", () => {
    expect(() => parseTemplate("id: [unclosed")).toThrow(/not valid YAML/);
    expect(() => parseTemplate("id: a\nid: b\n")).toThrow(/not valid YAML/);
  });
});

describe("matchers and extractors on canned responses", () => {
  const res = httpResponse(
    200,
    ["Server", "nginx/1.18.0", "Content-Type", "text/html", "X-Jenkins", "2.401.3", "Set-Cookie", "a=1", "Set-Cookie", "b=2"],
    Buffer.from("<html><title>Index of /files/</title>\nPHP Version 8.2.7\n</html>"),
  );
  const m = (x: object) => x as Matcher;

  it("status, size and dsl", () => {
    expect(matcherMatches(m({ type: "status", status: [200, 301], negative: false }), res)).toBe(true);
    expect(matcherMatches(m({ type: "status", status: [404], negative: true }), res)).toBe(true);
    expect(matcherMatches(m({ type: "size", size: [res.body.length], negative: false }), res)).toBe(true);
    expect(matcherMatches(m({ type: "dsl", dsl: ["status == 200", "size > 10"], condition: "and", negative: false }), res)).toBe(true);
    expect(matcherMatches(m({ type: "dsl", dsl: ["status != 200", "size > 10000"], condition: "or", negative: false }), res)).toBe(false);
    expect(matcherMatches(m({ type: "dsl", dsl: ["status == 200"], condition: "and", negative: false }), socketResponse(Buffer.from("x")))).toBe(false);
  });

  it("word: parts, and/or, case, negative", () => {
    const w = (x: object) => m({ type: "word", part: "body", condition: "or", case_insensitive: false, negative: false, ...x });
    expect(matcherMatches(w({ words: ["Index of /", "nope"] }), res)).toBe(true);
    expect(matcherMatches(w({ words: ["Index of /", "nope"], condition: "and" }), res)).toBe(false);
    expect(matcherMatches(w({ words: ["index OF /"] }), res)).toBe(false);
    expect(matcherMatches(w({ words: ["index OF /"], case_insensitive: true }), res)).toBe(true);
    expect(matcherMatches(w({ words: ["nginx/1.18.0"] }), res)).toBe(false); // header, not body
    expect(matcherMatches(w({ words: ["nginx/1.18.0"], part: "header" }), res)).toBe(true);
    expect(matcherMatches(w({ words: ["nginx/1.18.0", "PHP Version"], part: "all", condition: "and" }), res)).toBe(true);
    expect(matcherMatches(w({ words: ["<html"], negative: true }), res)).toBe(false);
  });

  it("regex (multi-line) and binary", () => {
    expect(matcherMatches(m({ type: "regex", part: "body", regex: ["^PHP Version \\d"], condition: "or", negative: false }), res)).toBe(true);
    const bin = socketResponse(Buffer.from([0x00, 0x01, 0xff, 0x42]));
    expect(matcherMatches(m({ type: "binary", part: "body", binary: ["01ff"], condition: "or", negative: false }), bin)).toBe(true);
    expect(matcherMatches(m({ type: "binary", part: "body", binary: ["01ff", "dead"], condition: "and", negative: false }), bin)).toBe(false);
  });

  it("probe conditions, regex groups and header values", () => {
    const matchers = [m({ type: "status", status: [200], negative: false }), m({ type: "status", status: [500], negative: false })];
    expect(probeMatches({ matchers, matchers_condition: "and" }, res)).toBe(false);
    expect(probeMatches({ matchers, matchers_condition: "or" }, res)).toBe(true);
    expect(
      extract(
        [
          { type: "regex", name: "php", part: "body", regex: ["PHP Version ([0-9.]+)"], group: 1 },
          { type: "kval", name: "jenkins", kval: ["x_jenkins", "server"] },
          { type: "kval", kval: ["set-cookie"] },
          { type: "regex", part: "body", regex: ["nothing (here)"], group: 1 },
        ],
        res,
      ),
    ).toEqual({ php: ["8.2.7"], jenkins: ["2.401.3", "nginx/1.18.0"], extract_2: ["a=1, b=2"] });
  });

  it("masks secrets in evidence", () => {
    expect(redact("url = https://deploy:ghp_token@github.com/acme/app.git", false)).toBe("url = https://deploy:[redacted]@github.com/acme/app.git");
    expect(redact("APP_ENV=prod\nDB_PASSWORD=hunter2\nexport TOKEN = abc", true)).toBe("APP_ENV=[redacted]\nDB_PASSWORD=[redacted]\nexport TOKEN = [redacted]");
  });
});

describe("services a template applies to", () => {
  const svc = (x: Partial<Service>): Service => ({ host: "127.0.0.1", port: 80, tls: false, ...x });
  it("HTTP templates go to web services; network templates to their selector, TCP or TLS by the port's TLS", () => {
    expect(appliesTo(byId("git-repository-exposure"), svc({ name: "http" })).http).toBe(true);
    expect(appliesTo(byId("git-repository-exposure"), svc({ port: 8080 })).http).toBe(true); // unidentified web port
    expect(appliesTo(byId("git-repository-exposure"), svc({ name: "ssh", port: 22 })).http).toBe(false);
    expect(appliesTo(byId("redis-unauthenticated"), svc({ name: "redis", port: 6380 }))).toEqual({ http: false, tcp: true, tls: false });
    expect(appliesTo(byId("redis-unauthenticated"), svc({ port: 6379, tls: true }))).toEqual({ http: false, tcp: false, tls: true });
    expect(appliesTo(byId("elasticsearch-unauthenticated"), svc({ name: "elasticsearch", port: 9200 })).http).toBe(true);
  });
});

describe("templates against live loopback servers", () => {
  const guard = new EgressGuard("127.0.0.0/8");
  let web: http.Server;
  let tcp: net.Server[] = [];
  let webPort = 0;
  const ports: Record<string, number> = {};
  const pages: Record<string, [number, string, Record<string, string>?]> = {
    "/.git/config": [200, '[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = https://deploy:ghp_secret@github.com/acme/app.git\n'],
    "/.env": [200, "APP_ENV=production\nDB_PASSWORD=s3cr3t\nSTRIPE_API_KEY=sk_live_x\n"],
    "/phpinfo.php": [200, '<html><head><title>phpinfo()</title></head><body><h1 class="p">PHP Version 8.2.7</h1></body></html>'],
    "/": [200, "<html><head><title>Welcome to nginx!</title></head></html>", { Server: "nginx/1.18.0" }],
  };

  beforeAll(async () => {
    web = http.createServer((req, res) => {
      const page = pages[req.url ?? ""];
      if (!page) {
        res.writeHead(404);
        return res.end("not found");
      }
      res.writeHead(page[0], { "Content-Type": "text/plain", ...page[2] });
      res.end(page[1]);
    });
    await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
    webPort = (web.address() as net.AddressInfo).port;
    const serve = async (name: string, onConn: (s: net.Socket) => void) => {
      const s = net.createServer((c) => {
        c.on("error", () => undefined);
        onConn(c);
      });
      await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
      tcp.push(s);
      ports[name] = (s.address() as net.AddressInfo).port;
    };
    await serve("redis", (c) => c.on("data", () => c.write("$40\r\n# Server\r\nredis_version:3.2.12\r\nx:1\r\n\r\n")));
    await serve("redisAuth", (c) => c.on("data", () => c.write("-NOAUTH Authentication required.\r\n")));
    await serve("ssh", (c) => c.write("SSH-2.0-OpenSSH_7.2p2 Ubuntu-4ubuntu2.8\r\n"));
    await serve("sshNew", (c) => c.write("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n"));
    await serve("ftp", (c) => {
      c.write("220 (vsFTPd 2.3.4)\r\n");
      c.on("data", (d) => c.write(d.toString().startsWith("USER") ? "331 Please specify the password.\r\n" : "530 Login incorrect.\r\n"));
    });
  });
  afterAll(async () => {
    await new Promise((r) => web.close(r));
    await Promise.all(tcp.map((s) => new Promise((r) => s.close(r))));
    tcp = [];
  });

  const webSvc = (): Service => ({ host: "127.0.0.1", hostname: "app.test", port: webPort, tls: false, name: "http" });

  it("finds the exposed git config and masks the credential in its evidence", async () => {
    const hit = await runTemplate(byId("git-repository-exposure"), webSvc(), { guard });
    expect(hit?.location).toBe(`http://app.test:${webPort}/.git/config`);
    const d = hitToDraft(hit!);
    expect(d).toMatchObject({
      templateId: "git-repository-exposure",
      tool: "templates",
      severity: "medium",
      cweIds: ["CWE-527"],
      target: "app.test",
      cvssScore: 5.3,
    });
    expect(d.evidence.request).toMatch(/^GET \/\.git\/config HTTP\/1\.1/);
    expect(d.evidence.request).toMatch(/Host: 127\.0\.0\.1/);
    expect(d.evidence.response).toContain("[core]");
    expect(d.evidence.response).not.toContain("ghp_secret");
    expect(d.description).toContain("remote: https://deploy:[redacted]@github.com/acme/app.git");
  });

  it("finds the .env file, names its secret keys and never shows their values", async () => {
    const d = hitToDraft((await runTemplate(byId("env-file-secrets"), webSvc(), { guard }))!);
    expect(d).toMatchObject({ severity: "high", cweIds: ["CWE-538", "CWE-312"], affectedComponent: `http://app.test:${webPort}/.env` });
    expect(d.evidence.response).toContain("DB_PASSWORD=[redacted]");
    expect(d.evidence.response).toContain("Content-Type: text/plain");
    expect(d.evidence.response).not.toMatch(/s3cr3t|sk_live/);
    expect(d.description).toContain("secret_keys: DB_PASSWORD, STRIPE_API_KEY");
  });

  it("finds phpinfo and the default page, and not what is absent", async () => {
    expect(hitToDraft((await runTemplate(byId("phpinfo-exposure"), webSvc(), { guard }))!).description).toContain("php_version: 8.2.7");
    expect((await runTemplate(byId("nginx-default-page"), webSvc(), { guard }))?.extracted).toEqual({ server: ["nginx/1.18.0"] });
    for (const id of [
      "apache-server-status",
      "spring-boot-actuator-env",
      "directory-listing",
      "openapi-docs-exposed",
      "apache-default-page",
      "jenkins-login-exposed",
    ])
      expect(await runTemplate(byId(id), webSvc(), { guard }), id).toBeUndefined();
  });

  it("finds unauthenticated Redis over TCP, not one that demands AUTH", async () => {
    const hit = await runTemplate(byId("redis-unauthenticated"), { host: "127.0.0.1", port: ports.redis!, tls: false, name: "redis" }, { guard });
    expect(hit?.extracted).toEqual({ redis_version: ["3.2.12"] });
    expect(hit?.request).toContain("> INFO server\r\n");
    expect(hitToDraft(hit!)).toMatchObject({ severity: "critical", affectedComponent: `tcp://127.0.0.1:${ports.redis}`, cweIds: ["CWE-306"] });
    expect(
      await runTemplate(byId("redis-unauthenticated"), { host: "127.0.0.1", port: ports.redisAuth!, tls: false, name: "redis" }, { guard }),
    ).toBeUndefined();
  });

  it("reads banners: vsFTPd 2.3.4 and OpenSSH ≤ 7.7, but not OpenSSH 9.2; anonymous FTP refused is no finding", async () => {
    const ftp = { host: "127.0.0.1", port: ports.ftp!, tls: false, name: "ftp" };
    expect(hitToDraft((await runTemplate(byId("vsftpd-234-backdoor"), ftp, { guard }))!)).toMatchObject({ cveIds: ["CVE-2011-2523"], severity: "critical" });
    expect(await runTemplate(byId("ftp-anonymous-login"), ftp, { guard })).toBeUndefined();
    const ssh = await runTemplate(byId("openssh-user-enumeration"), { host: "127.0.0.1", port: ports.ssh!, tls: false, name: "ssh" }, { guard });
    expect(ssh?.extracted).toEqual({ openssh_version: ["7.2p2"] });
    expect(await runTemplate(byId("openssh-user-enumeration"), { host: "127.0.0.1", port: ports.sshNew!, tls: false, name: "ssh" }, { guard })).toBeUndefined();
  });

  it("never connects outside the egress allowlist", async () => {
    const narrow = new EgressGuard("10.0.0.0/8");
    await expect(runTemplate(byId("git-repository-exposure"), webSvc(), { guard: narrow })).rejects.toThrow(/outside SCAN_ALLOWED_NETWORKS/);
    await expect(
      runTemplate(byId("redis-unauthenticated"), { host: "127.0.0.1", port: ports.redis!, tls: false, name: "redis" }, { guard: narrow }),
    ).rejects.toThrow(/outside SCAN_ALLOWED_NETWORKS/);
  });
});
