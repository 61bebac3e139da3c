import type { AuthenticationType, NextAuthHandler } from "ssh2";
import type { EgressGuard } from "../../net/egress.js";
import { connectTcp } from "../../net/tcp.js";

/*
 * Which authentication methods an SSH server offers, without logging in (RFC 4252 §5.2): after
 * the key exchange (ssh2 does it), one SSH_MSG_USERAUTH_REQUEST with method "none" is answered
 * by SSH_MSG_USERAUTH_FAILURE listing the methods that can continue. No password, key or other
 * credential is ever sent; the connection is closed right after that answer.
 */

// Loaded at the first SSH probe, not at start: ssh2 stays in node_modules (it loads a native
// addon), and its unbundled modules (1.1 MB of source with comments, which V8 keeps, plus the
// tables they build at import) were held by every scanner, most of which never probe SSH.
// ssh2 is CommonJS whose exports Node cannot name statically: take them from the default export.
let ssh2Client: Promise<typeof import("ssh2").Client> | undefined;
const loadClient = () => (ssh2Client ??= import("ssh2").then((m) => m.default.Client));

/** The user name the probe asks for; servers answer with their configured methods whatever it is. */
export const PROBE_USER = "vulnscan-probe";

export interface AuthMethods {
  /** The methods the server lists, in its order; empty when it let "none" in (no authentication at all). */
  methods: string[];
  /** The negotiated algorithms, for the evidence. */
  negotiated?: string;
}

/** ssh2 ends authentication when the handler answers false; @types/ssh2 does not list that value. */
const STOP = false as unknown as AuthenticationType;

export async function fetchAuthMethods(
  host: string,
  port: number,
  opts: { guard: EgressGuard; signal?: AbortSignal; timeoutMs?: number },
): Promise<AuthMethods | undefined> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const sock = await connectTcp(host, port, { guard: opts.guard, timeoutMs, signal: opts.signal }).catch(() => undefined);
  if (!sock) return undefined;
  const Client = await loadClient().catch((err: unknown) => {
    sock.destroy();
    throw err;
  });
  return new Promise((resolve) => {
    const client = new Client();
    let result: AuthMethods | undefined;
    let negotiated: string | undefined;
    const finish = () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", finish);
      client.removeAllListeners();
      client.on("error", () => undefined);
      client.end();
      sock.destroy();
      resolve(result);
    };
    const timer = setTimeout(finish, timeoutMs);
    opts.signal?.addEventListener("abort", finish, { once: true });
    client.on("handshake", (n) => (negotiated = `kex ${n.kex}, host key ${n.serverHostKey}, cipher ${n.cs.cipher}${n.cs.mac ? `, mac ${n.cs.mac}` : ""}`));
    // "none" accepted: the server asks for nothing. No channel is ever opened.
    client.on("ready", () => {
      result = { methods: [], negotiated };
      finish();
    });
    client.on("error", finish);
    client.on("close", finish);
    client.connect({
      sock,
      username: PROBE_USER,
      // Only the offered methods matter here; the host key is not judged.
      hostVerifier: () => true,
      readyTimeout: timeoutMs,
      authHandler: (left: AuthenticationType[] | null, _partial: boolean, next: NextAuthHandler) => {
        if (left === null) return next("none");
        result = { methods: [...left], negotiated };
        next(STOP);
      },
    });
  });
}
