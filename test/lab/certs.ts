import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/*
 * Certificates for the lab, made with the openssl CLI: a lab root CA and an intermediate under
 * it; a valid certificate for the hardened host (with an OCSP URL, and a real OCSP response from
 * `openssl ocsp` to staple); one that expires in 10 days; one not valid until next year; one
 * served without its intermediate (and with an OCSP URL, unstapled); and an expired self-signed
 * one. Leaves issued by the intermediate carry it after the leaf in `cert` (a full chain), except
 * the incomplete one. `openssl ca` is used because it is the only 3.0 command that sets
 * arbitrary validity dates (needed for the expired and not-yet-valid ones).
 */

export interface Pem {
  key: string;
  cert: string;
  /** A DER OCSP response for the certificate (base64), for the server to staple. */
  ocsp?: string;
}

/** The OCSP responder the lab's certificates name; nothing listens there and nothing asks it. */
export const LAB_OCSP_URL = "http://ocsp.vslab.test/";

export interface LabCerts {
  dir: string;
  ca: Pem;
  hardened: Pem;
  expiringSoon: Pem;
  notYetValid: Pem;
  expiredSelfSigned: Pem;
  /** Leaf issued by the intermediate, served alone; its AIA names an OCSP responder. */
  incompleteChain: Pem;
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
  const csr = (name: string, cn: string, san?: string, ...ext: string[]) => {
    const extensions = [...(san ? [`subjectAltName=${san}`] : []), ...ext].flatMap((e) => ["-addext", e]);
    return ossl("req", "-new", "-key", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${cn}`, ...extensions);
  };
  const pemOf = (name: string) => fs.readFileSync(path.join(dir, `${name}.crt`), "utf8");
  const read = (name: string, chain: string[] = []): Pem => ({
    key: fs.readFileSync(path.join(dir, `${name}.key`), "utf8"),
    cert: [name, ...chain].map(pemOf).join(""),
  });
  const sign = (name: string, start: Date, end: Date, issuer: "ca" | "inter" | "self" = "inter", digest = "sha256") =>
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
      ...(issuer === "self" ? ["-selfsign", "-keyfile", `${name}.key`] : ["-cert", `${issuer}.crt`, "-keyfile", `${issuer}.key`]),
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
  const aia = `authorityInfoAccess=OCSP;URI:${LAB_OCSP_URL}`;

  key("inter");
  csr("inter", "vulnscan lab intermediate CA", undefined, "basicConstraints=critical,CA:true,pathlen:0", "keyUsage=critical,keyCertSign,cRLSign");
  sign("inter", new Date(now - 365 * day), new Date(now + 30 * day), "ca");

  key("hardened");
  csr("hardened", names.hardened, `DNS:${names.hardened}`, aia);
  sign("hardened", new Date(now - day), new Date(now + 365 * day));
  // A real OCSP response ("good", signed by the intermediate) for the hardened server to staple.
  ossl("ocsp", "-issuer", "inter.crt", "-cert", "hardened.crt", "-no_nonce", "-reqout", "hardened.ocspreq");
  ossl(
    "ocsp",
    "-index",
    "index.txt",
    "-CA",
    "inter.crt",
    "-rsigner",
    "inter.crt",
    "-rkey",
    "inter.key",
    "-reqin",
    "hardened.ocspreq",
    "-respout",
    "hardened.ocsp",
    "-ndays",
    "7",
  );

  key("incomplete");
  csr("incomplete", names.weak, `DNS:${names.weak}`, aia);
  sign("incomplete", new Date(now - day), new Date(now + 365 * day));

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
  sign("expired", new Date(Date.UTC(2019, 0, 1)), new Date(Date.UTC(2020, 0, 1)), "self", "sha1");

  return {
    dir,
    ca: read("ca"),
    hardened: { ...read("hardened", ["inter"]), ocsp: fs.readFileSync(path.join(dir, "hardened.ocsp")).toString("base64") },
    expiringSoon: read("soon", ["inter"]),
    notYetValid: read("future", ["inter"]),
    expiredSelfSigned: read("expired"),
    incompleteChain: read("incomplete"),
  };
}
