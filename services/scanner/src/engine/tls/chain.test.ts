import fs from "node:fs";
import https from "node:https";
import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeCerts, type LabCerts, type Pem } from "../../../../../test/lab/certs.js";
import { EgressGuard } from "../../net/egress.js";
import { analyzeTlsService } from "./analyze.js";

/*
 * Chain completeness and OCSP stapling against loopback TLS servers with the lab's certificates:
 * a leaf sent without its intermediate, the same chain sent whole, a stapled OCSP response, a
 * certificate without an OCSP URL, and a self-signed one.
 */

let certs: LabCerts;
const servers: net.Server[] = [];
const guard = new EgressGuard("127.0.0.0/8");

async function serve(pem: Pem, staple?: Buffer): Promise<number> {
  const server = https.createServer({ key: pem.key, cert: pem.cert }, (_req, res) => res.end("ok"));
  if (staple) server.on("OCSPRequest", (_c: Buffer, _i: Buffer, done: (e: Error | null, r?: Buffer) => void) => done(null, staple));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

const ids = async (pem: Pem, staple?: Buffer) => {
  const port = await serve(pem, staple);
  const found = await analyzeTlsService({ host: "127.0.0.1", port, hostname: "weak.vslab.test", name: "https", tls: true }, { guard });
  return found.map((d) => d.templateId).filter((id) => id === "tls-cert-chain-incomplete" || id === "tls-no-ocsp-stapling");
};

beforeAll(() => {
  certs = makeCerts({ hardened: "weak.vslab.test", weak: "weak.vslab.test" });
});
afterAll(() => {
  for (const s of servers) s.close();
  fs.rmSync(certs.dir, { recursive: true, force: true });
});

describe("TLS chain and OCSP stapling", () => {
  it("reports a leaf sent without its intermediate, and an OCSP URL with nothing stapled", async () => {
    expect(await ids(certs.incompleteChain)).toEqual(["tls-cert-chain-incomplete", "tls-no-ocsp-stapling"]);
  });

  it("reports neither for the full chain with a stapled response", async () => {
    expect(await ids(certs.hardened, Buffer.from(certs.hardened.ocsp!, "base64"))).toEqual([]);
  });

  it("reports only the missing staple when the full chain is sent without one", async () => {
    expect(await ids(certs.hardened)).toEqual(["tls-no-ocsp-stapling"]);
  });

  it("reports neither for a certificate without an OCSP URL sent with its chain, nor for a self-signed one", async () => {
    expect(await ids(certs.expiringSoon)).toEqual([]);
    expect(await ids(certs.expiredSelfSigned)).toEqual([]);
  });
});
