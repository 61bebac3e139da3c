import http from "node:http";
import https from "node:https";
import type net from "node:net";
import { hardenedApp, redirectToHttps, weakApp } from "./servers/web-apps.js";
import { sshKeysOnly, sshPasswordAuth } from "./servers/ssh-servers.js";
import { ftp, mongoLike, mysql, postgresScram, postgresTrust, redisLike, smtp, ssh, telnet } from "./servers/tcp-services.js";

/*
 * The lab's Node servers, one process, started by lab.ts (inside the lab namespace when there
 * is one). Reads its plan as JSON from argv, listens, prints one JSON line with the bound ports,
 * and exits when stdin closes (its parent went away) or after an hour at most.
 */

export interface ServerPlan {
  weak: string;
  hardened: string;
  hardenedName: string;
  /** Fixed ports in a namespace; 0 everywhere on loopback (the kernel picks). */
  ports: Record<ServiceKey, number>;
  certs: { expired: Pem; soon: Pem; future: Pem; hardened: Pem; incompleteChain: Pem };
}
interface Pem {
  key: string;
  cert: string;
  ocsp?: string;
}
export type ServiceKey =
  | "http"
  | "tlsWeak"
  | "tlsSoon"
  | "tlsFuture"
  | "tlsChain"
  | "ssh"
  | "sshPassword"
  | "ftp"
  | "smtp"
  | "telnet"
  | "mysql"
  | "redisLike"
  | "mongoLike"
  | "elasticsearch"
  | "postgres"
  | "hardenedPostgres"
  | "hardenedHttps"
  | "hardenedHttp"
  | "hardenedSsh";

const es: http.RequestListener = (req, res) => {
  const url = (req.url ?? "/").split("?")[0];
  res.setHeader("Content-Type", "application/json; charset=UTF-8");
  if (url === "/") {
    return res.end(
      JSON.stringify({
        name: "es-lab-1",
        cluster_name: "lab",
        cluster_uuid: "kZ0J8xC6TfqA3Yl2J3gY4w",
        version: { number: "6.8.23", build_flavor: "default", build_type: "deb", lucene_version: "7.7.3" },
        tagline: "You Know, for Search",
      }),
    );
  }
  if (url === "/_cat/indices") {
    res.setHeader("Content-Type", "text/plain; charset=UTF-8");
    return res.end("green open customers  Xb1q 1 0 1200 0 1.2mb 1.2mb\ngreen open orders     Yc2r 1 0 5400 0 4.8mb 4.8mb\n");
  }
  res.statusCode = 404;
  res.end(JSON.stringify({ error: "no handler found", status: 404 }));
};

const listen = (server: net.Server, host: string, port: number) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host, port }, () => resolve((server.address() as net.AddressInfo).port));
  });
const port = (s: net.Server) => (s.address() as net.AddressInfo).port;

async function main() {
  const plan = JSON.parse(process.argv[2] ?? "{}") as ServerPlan;
  const { weak, hardened, ports, certs } = plan;
  // Old protocols and suites, and no TLS 1.3 (an OpenSSL 1.0-era server).
  const legacy = { minVersion: "TLSv1" as const, maxVersion: "TLSv1.2" as const, ciphers: "ALL:eNULL:@SECLEVEL=0" };
  const out: Partial<Record<ServiceKey, number>> = {};
  out.http = await listen(http.createServer(weakApp), weak, ports.http);
  out.tlsWeak = await listen(https.createServer({ ...certs.expired, ...legacy }, weakApp), weak, ports.tlsWeak);
  out.tlsSoon = await listen(https.createServer({ ...certs.soon }, hardenedApp), weak, ports.tlsSoon);
  out.tlsFuture = await listen(https.createServer({ ...certs.future }, hardenedApp), weak, ports.tlsFuture);
  // Issued by the lab intermediate but served without it; its OCSP URL gets no staple.
  out.tlsChain = await listen(https.createServer({ ...certs.incompleteChain }, hardenedApp), weak, ports.tlsChain);
  out.elasticsearch = await listen(http.createServer(es), weak, ports.elasticsearch);
  out.ssh = port(await ssh(weak, ports.ssh));
  out.sshPassword = port(await sshPasswordAuth(weak, ports.sshPassword));
  out.ftp = port(await ftp(weak, ports.ftp));
  out.smtp = port(await smtp(weak, ports.smtp));
  out.telnet = port(await telnet(weak, ports.telnet));
  out.mysql = port(await mysql(weak, ports.mysql));
  out.redisLike = port(await redisLike(weak, ports.redisLike));
  out.mongoLike = port(await mongoLike(weak, ports.mongoLike));
  out.postgres = port(await postgresTrust(weak, ports.postgres));
  out.hardenedPostgres = port(await postgresScram(hardened, ports.hardenedPostgres));
  // The hardened host: TLS 1.2+ with forward-secret AEAD suites only, valid CA-issued certificate
  // sent with its intermediate, and a stapled OCSP response (made by `openssl ocsp`, certs.ts).
  const hardenedTls = https.createServer(
    {
      key: certs.hardened.key,
      cert: certs.hardened.cert,
      minVersion: "TLSv1.2",
      ciphers: "ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305",
      honorCipherOrder: true,
    },
    hardenedApp,
  );
  const staple = Buffer.from(certs.hardened.ocsp ?? "", "base64");
  hardenedTls.on("OCSPRequest", (_cert: Buffer, _issuer: Buffer, done: (err: Error | null, resp?: Buffer) => void) => done(null, staple));
  out.hardenedHttps = await listen(hardenedTls, hardened, ports.hardenedHttps);
  // A real SSH server (key exchange and authentication) that offers public keys only.
  out.hardenedSsh = port(await sshKeysOnly(hardened, ports.hardenedSsh));
  out.hardenedHttp = await listen(http.createServer(redirectToHttps(plan.hardenedName, out.hardenedHttps)), hardened, ports.hardenedHttp);
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

// Scanners send these servers anything (nmap's scripts did crash one): a handler that throws on
// odd input loses that connection, never the lab.
process.on("uncaughtException", (err) => process.stderr.write(`lab servers: ${String(err)}\n`));
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
process.stdin.on("close", () => process.exit(0));
setTimeout(() => process.exit(0), 3_600_000).unref();
main().catch((err: unknown) => {
  process.stderr.write(`lab servers failed: ${String(err)}\n`);
  process.exit(1);
});
