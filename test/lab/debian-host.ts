import { execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/*
 * The lab's patched Debian host: Debian's own OpenSSH server and nginx, as a fully updated
 * Debian 12 machine runs them (packages installed by setup.sh, never started by apt), with a
 * hardened configuration: public keys only, modern algorithms with strict key exchange, and
 * nginx with HTTP/2 off (1.22 speaks it only with `http2` on a listen line). Their banners
 * ("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u10", "Server: nginx/1.22.1") are inside NVD's ranges
 * of CVEs Debian fixed by backports: the host on which version matching must not cry wolf.
 */

export const SSHD = "/usr/sbin/sshd";
export const NGINX = "/usr/sbin/nginx";

export interface DebianPorts {
  ssh: number;
  http: number;
  https: number;
}

/** The installed package versions (dpkg's own words), for notes and the benchmark. */
export function debianPackages(): { openssh: string; nginx: string } {
  const v = (pkg: string) => execFileSync("dpkg-query", ["-W", `-f=\${Version}`, pkg]).toString().trim();
  return { openssh: v("openssh-server"), nginx: v("nginx") };
}

/** Writes the configurations and starts both servers (through `start`, so inside the lab namespace when there is one). */
export function startDebianHost(
  start: (cmd: string, args: string[]) => ChildProcess,
  address: string,
  ports: DebianPorts,
  tls: { key: string; cert: string },
  dir: string,
): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  const hostKey = path.join(dir, "ssh_host_ed25519_key");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", hostKey]);
  // sshd's privilege separation directory (Debian's unit creates it at boot).
  fs.mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  const sshdConfig = path.join(dir, "sshd_config");
  fs.writeFileSync(
    sshdConfig,
    [
      `ListenAddress ${address}:${ports.ssh}`,
      `HostKey ${hostKey}`,
      "PidFile none",
      "UsePAM no",
      "StrictModes no",
      "PermitRootLogin no",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PubkeyAuthentication yes",
      "AuthorizedKeysFile none",
      "KexAlgorithms sntrup761x25519-sha512@openssh.com,curve25519-sha256,curve25519-sha256@libssh.org",
      "Ciphers chacha20-poly1305@openssh.com,aes128-gcm@openssh.com,aes256-gcm@openssh.com,aes128-ctr,aes256-ctr",
      "MACs hmac-sha2-256-etm@openssh.com,hmac-sha2-512-etm@openssh.com,umac-128-etm@openssh.com",
      "HostKeyAlgorithms ssh-ed25519",
      "",
    ].join("\n"),
  );
  start(SSHD, ["-D", "-e", "-f", sshdConfig]);

  const www = path.join(dir, "www");
  fs.mkdirSync(www, { recursive: true, mode: 0o755 });
  fs.writeFileSync(path.join(www, "index.html"), "<!doctype html><html><head><title>Debian host</title></head><body>Up to date.</body></html>\n");
  fs.writeFileSync(path.join(dir, "tls.key"), tls.key, { mode: 0o600 });
  fs.writeFileSync(path.join(dir, "tls.crt"), tls.cert);
  const temp = (name: string) => path.join(dir, `nginx-${name}`);
  const nginxConfig = path.join(dir, "nginx.conf");
  fs.writeFileSync(
    nginxConfig,
    `user root;
worker_processes 1;
pid ${path.join(dir, "nginx.pid")};
error_log stderr warn;
daemon off;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${temp("body")};
  proxy_temp_path ${temp("proxy")};
  fastcgi_temp_path ${temp("fastcgi")};
  uwsgi_temp_path ${temp("uwsgi")};
  scgi_temp_path ${temp("scgi")};
  # HTTP/2 off: no "http2" on either listen line.
  server { listen ${address}:${ports.http}; root ${www}; index index.html; }
  server {
    listen ${address}:${ports.https} ssl;
    ssl_certificate ${path.join(dir, "tls.crt")};
    ssl_certificate_key ${path.join(dir, "tls.key")};
    ssl_protocols TLSv1.2 TLSv1.3;
    root ${www};
    index index.html;
  }
}
`,
  );
  start(NGINX, ["-c", nginxConfig, "-e", "stderr"]);
}
