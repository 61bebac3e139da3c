import type net from "node:net";
import ssh2, { type Algorithms, type AuthenticationType } from "ssh2";

// ssh2 is CommonJS whose exports Node cannot name statically: take them from the default export.
const { Server, utils } = ssh2;

/*
 * Real SSH servers (the ssh2 library's Server: a full key exchange and the user-authentication
 * protocol), for the check that asks which authentication methods a server offers. Both offer
 * modern algorithms only (ssh2 adds strict key exchange itself), so that their one difference is
 * the method list: the planted one offers password and publickey, the hardened one publickey
 * only. Every authentication attempt is refused: nobody logs in to the lab.
 */

/** What both servers offer: no SHA-1, no CBC, no 64-bit MACs (nothing the KEXINIT checks report). */
export const MODERN_SSH2_ALGORITHMS: Algorithms = {
  kex: ["curve25519-sha256", "curve25519-sha256@libssh.org"],
  serverHostKey: ["ssh-ed25519"],
  cipher: ["aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "aes128-ctr", "aes256-ctr"],
  hmac: ["hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com"],
  compress: ["none"],
};

/** The software name both send after "SSH-2.0-" (the hardened host's OpenSSH release). */
export const SSH2_IDENT = "OpenSSH_9.9";

/**
 * An ed25519 host key ssh2 can read back: its generator strips a public key's leading zero bytes,
 * so about 1 key in 256 is one its own parser refuses ("Malformed OpenSSH private key";
 * mscdex/ssh2#1390, #1513). Such a key is drawn again.
 */
function hostKey(): string {
  for (;;) {
    const key = utils.generateKeyPairSync("ed25519").private;
    if (!(utils.parseKey(key) instanceof Error)) return key;
  }
}

const realSsh =
  (methods: AuthenticationType[]) =>
  (host: string, port: number): Promise<net.Server> =>
    new Promise((resolve, reject) => {
      const server = new Server({ hostKeys: [hostKey()], ident: SSH2_IDENT, algorithms: MODERN_SSH2_ALGORITHMS }, (client) => {
        client.on("error", () => undefined);
        client.on("authentication", (ctx) => ctx.reject(methods));
      });
      // ssh2's Server wraps a net.Server (`_srv`), which is what the lab's port bookkeeping reads.
      const inner = (server as unknown as { _srv: net.Server })._srv;
      inner.once("error", reject);
      server.listen(port, host, () => resolve(inner));
    });

export const sshPasswordAuth = realSsh(["password", "publickey"]);
export const sshKeysOnly = realSsh(["publickey"]);
