import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * A throwaway CA and a server certificate for one IP address (and optionally a name), made with the openssl CLI in
 * `dir`: the CA file is what a client trusts (NODE_EXTRA_CA_CERTS), key and cert what the
 * server serves. Webhook receivers in tests and benchmarks use it.
 */
export function selfSignedCertificates(dir: string, ip: string, dnsName?: string): { ca: string; key: Buffer; cert: Buffer } {
  const run = (args: string[]) => {
    const r = spawnSync("openssl", args, { cwd: dir, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`openssl ${args.join(" ")}: ${r.stderr}`);
  };
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  run(["req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=vulnscan test CA"]);
  run(["req", ...ec, "-keyout", "key.pem", "-out", "req.csr", "-subj", `/CN=${ip}`]);
  fs.writeFileSync(path.join(dir, "ext.cnf"), `subjectAltName=IP:${ip}${dnsName ? `,DNS:${dnsName}` : ""}\nbasicConstraints=CA:FALSE\n`);
  run(["x509", "-req", "-in", "req.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "cert.pem", "-days", "2", "-extfile", "ext.cnf"]);
  return { ca: path.join(dir, "ca.pem"), key: fs.readFileSync(path.join(dir, "key.pem")), cert: fs.readFileSync(path.join(dir, "cert.pem")) };
}
