import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/*
 * Certificates for the lab, made with the openssl CLI: a lab CA; a valid certificate for the
 * hardened host; one that expires in 10 days; one not valid until next year; and an expired
 * self-signed one. `openssl ca` is used because it is the only 3.0 command that sets arbitrary
 * validity dates (needed for the expired and not-yet-valid ones).
 */

export interface Pem {
  key: string;
  cert: string;
}

export interface LabCerts {
  dir: string;
  ca: Pem;
  hardened: Pem;
  expiringSoon: Pem;
  notYetValid: Pem;
  expiredSelfSigned: Pem;
}

const stamp = (d: Date) => `${d.toISOString().replace(/[-:T]/g, "").slice(0, 14)}Z`;

export function makeCerts(names: { hardened: string; weak: string }): LabCerts {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vslab-certs-"));
  const ossl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  fs.writeFileSync(path.join(dir, "index.txt"), "");
  fs.writeFileSync(path.join(dir, "serial"), "1000\n");
  fs.writeFileSync(
    path.join(dir, "ca.cnf"),
    [
      "[ ca ]",
      "default_ca = lab",
      "[ lab ]",
      `dir = ${dir}`,
      "database = $dir/index.txt",
      "new_certs_dir = $dir",
      "serial = $dir/serial",
      "default_md = sha256",
      "policy = any",
      "copy_extensions = copy",
      "unique_subject = no",
      "[ any ]",
      "commonName = supplied",
    ].join("\n"),
  );
  const key = (name: string, bits = 2048) => ossl("genrsa", "-out", `${name}.key`, String(bits));
  const csr = (name: string, cn: string, san?: string) =>
    ossl("req", "-new", "-key", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${cn}`, ...(san ? ["-addext", `subjectAltName=${san}`] : []));
  const read = (name: string): Pem => ({
    key: fs.readFileSync(path.join(dir, `${name}.key`), "utf8"),
    cert: fs.readFileSync(path.join(dir, `${name}.crt`), "utf8"),
  });
  const sign = (name: string, start: Date, end: Date, selfSigned = false, digest = "sha256") =>
    ossl(
      "ca",
      "-md",
      digest,
      "-batch",
      "-notext",
      "-config",
      "ca.cnf",
      "-in",
      `${name}.csr`,
      "-out",
      `${name}.crt`,
      "-startdate",
      stamp(start),
      "-enddate",
      stamp(end),
      ...(selfSigned ? ["-selfsign", "-keyfile", `${name}.key`] : ["-cert", "ca.crt", "-keyfile", "ca.key"]),
    );

  key("ca");
  ossl(
    "req",
    "-x509",
    "-new",
    "-key",
    "ca.key",
    "-out",
    "ca.crt",
    "-days",
    "30",
    "-subj",
    "/CN=vulnscan lab CA",
    "-addext",
    "basicConstraints=critical,CA:true",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  );
  const day = 86_400_000;
  const now = Date.now();

  key("hardened");
  csr("hardened", names.hardened, `DNS:${names.hardened}`);
  sign("hardened", new Date(now - day), new Date(now + 365 * day));

  key("soon");
  csr("soon", names.weak, `DNS:${names.weak}`);
  sign("soon", new Date(now - 300 * day), new Date(now + 10 * day));

  key("future");
  csr("future", names.weak, `DNS:${names.weak}`);
  sign("future", new Date(now + 365 * day), new Date(now + 730 * day));

  // The usual default of an appliance nobody configured: self-signed, generic name, long expired,
  // a 1024-bit key signed with SHA-1.
  key("expired", 1024);
  csr("expired", "localhost.localdomain");
  sign("expired", new Date(Date.UTC(2019, 0, 1)), new Date(Date.UTC(2020, 0, 1)), true, "sha1");

  return { dir, ca: read("ca"), hardened: read("hardened"), expiringSoon: read("soon"), notYetValid: read("future"), expiredSelfSigned: read("expired") };
}
