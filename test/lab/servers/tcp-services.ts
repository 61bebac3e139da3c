import net from "node:net";
import { BSON, type Document } from "bson";

/*
 * Small protocol servers that say exactly what old or careless deployments say: banners of
 * OpenSSH 7.2p2 and vsFTPd 2.3.4, a Postfix greeting, a telnet login, a MySQL 5.7 handshake,
 * and datastores without authentication (Redis protocol, MongoDB wire protocol). They speak
 * just enough of each protocol for identification and the unauthenticated-access checks.
 */

type Listen = (host: string, port: number) => Promise<net.Server>;

const serve =
  (onConn: (s: net.Socket) => void): Listen =>
  (host, port) =>
    new Promise((resolve, reject) => {
      const server = net.createServer((s) => {
        s.on("error", () => undefined);
        s.setTimeout(30_000, () => s.destroy());
        onConn(s);
      });
      server.once("error", reject);
      server.listen({ host, port }, () => resolve(server));
    });

export const SSH_BANNER = "SSH-2.0-OpenSSH_7.2p2 Ubuntu-4ubuntu2.8";
export const FTP_BANNER = "220 (vsFTPd 2.3.4)";

/** What OpenSSH 7.2 offered by default (plus the legacy names old configs re-enable): weak kex, DSA/SHA-1 host keys, CBC, MD5/SHA-1 MACs, ChaCha20 without strict kex (Terrapin). */
export const WEAK_SSH_ALGORITHMS = {
  kex: "curve25519-sha256@libssh.org,ecdh-sha2-nistp256,diffie-hellman-group-exchange-sha256,diffie-hellman-group14-sha1,diffie-hellman-group1-sha1",
  hostKey: "ssh-rsa,ssh-dss,ecdsa-sha2-nistp256,ssh-ed25519",
  ciphers: "chacha20-poly1305@openssh.com,aes128-ctr,aes256-ctr,aes128-gcm@openssh.com,aes128-cbc,3des-cbc",
  macs: "umac-64-etm@openssh.com,hmac-sha2-256-etm@openssh.com,hmac-sha1-etm@openssh.com,hmac-sha2-256,hmac-sha1,hmac-md5",
};

/** OpenSSH 9.9's defaults, trimmed to the strongest: strict key exchange announced (the KEXINIT parser's unit test). */
export const HARDENED_SSH_ALGORITHMS = {
  kex: "sntrup761x25519-sha512@openssh.com,curve25519-sha256,curve25519-sha256@libssh.org,ext-info-s,kex-strict-s-v00@openssh.com",
  hostKey: "rsa-sha2-512,rsa-sha2-256,ssh-ed25519",
  ciphers: "chacha20-poly1305@openssh.com,aes128-gcm@openssh.com,aes256-gcm@openssh.com,aes128-ctr,aes256-ctr",
  macs: "hmac-sha2-256-etm@openssh.com,hmac-sha2-512-etm@openssh.com,umac-128-etm@openssh.com",
};

/** An unencrypted SSH_MSG_KEXINIT binary packet (RFC 4253 §6, §7.1) offering `a`. */
export function kexInitPacket(a: typeof WEAK_SSH_ALGORITHMS): Buffer {
  const str = (t: string) => {
    const b = Buffer.alloc(4 + Buffer.byteLength(t));
    b.writeUInt32BE(Buffer.byteLength(t));
    b.write(t, 4, "latin1");
    return b;
  };
  const lists = [a.kex, a.hostKey, a.ciphers, a.ciphers, a.macs, a.macs, "none,zlib@openssh.com", "none,zlib@openssh.com", "", ""];
  const payload = Buffer.concat([Buffer.from([20]), Buffer.alloc(16, 0x5a), ...lists.map(str), Buffer.from([0, 0, 0, 0, 0])]);
  let padding = 8 - ((payload.length + 5) % 8);
  if (padding < 4) padding += 8;
  const head = Buffer.alloc(5);
  head.writeUInt32BE(1 + payload.length + padding);
  head[4] = padding;
  return Buffer.concat([head, payload, Buffer.alloc(padding)]);
}

/**
 * Identification, then KEXINIT at once (as OpenSSH does); the key exchange itself never happens:
 * once the client sends more than its identification line (its own KEXINIT), the server hangs
 * up rather than leave it waiting for a key exchange reply. (The lab's real SSH servers, with
 * authentication, are in ssh-servers.ts.)
 */
const sshServer = (banner: string, algorithms: typeof WEAK_SSH_ALGORITHMS) =>
  serve((s) => {
    s.write(`${banner}\r\n`);
    s.write(kexInitPacket(algorithms));
    let got = Buffer.alloc(0);
    s.on("data", (d) => {
      got = Buffer.concat([got, d]);
      const nl = got.indexOf(0x0a);
      if (nl >= 0 && got.length > nl + 1) s.end();
    });
  });

export const ssh = sshServer(SSH_BANNER, WEAK_SSH_ALGORITHMS);

export const ftp = serve((s) => {
  s.write(`${FTP_BANNER}\r\n`);
  s.on("data", (d) => {
    const cmd = d.toString("latin1").trim().split(" ")[0]?.toUpperCase();
    if (cmd === "USER") s.write("331 Please specify the password.\r\n");
    else if (cmd === "QUIT") s.end("221 Goodbye.\r\n");
    else s.write("530 Please login with USER and PASS.\r\n");
  });
});

export const smtp = serve((s) => {
  s.write("220 mail.vslab.test ESMTP Postfix (Debian/GNU)\r\n");
  s.on("data", (d) => {
    const line = d.toString("latin1").trim().toUpperCase();
    if (line.startsWith("EHLO")) s.write("250-mail.vslab.test\r\n250-PIPELINING\r\n250-SIZE 10240000\r\n250-VRFY\r\n250-STARTTLS\r\n250 8BITMIME\r\n");
    else if (line.startsWith("QUIT")) s.end("221 2.0.0 Bye\r\n");
    else s.write("502 5.5.2 Error: command not recognized\r\n");
  });
});

// IAC DO ECHO, IAC DO SUPPRESS-GO-AHEAD, IAC WILL ECHO, then a login prompt.
export const telnet = serve((s) =>
  s.write(Buffer.concat([Buffer.from([0xff, 0xfd, 0x01, 0xff, 0xfd, 0x03, 0xff, 0xfb, 0x01]), Buffer.from("\r\nUbuntu 16.04 LTS\r\nlogin: ")])),
);

export const mysql = serve((s) => {
  const version = Buffer.from("5.7.33-0ubuntu0.16.04.1\0", "latin1");
  const payload = Buffer.concat([
    Buffer.from([0x0a]),
    version,
    Buffer.from([0x2a, 0, 0, 0]), // connection id
    Buffer.from("abcdefgh\0", "latin1"), // auth-plugin-data part 1 + filler
    Buffer.from([0xff, 0xf7, 0x21, 0x02, 0x00, 0xff, 0x81, 0x15]),
    Buffer.alloc(10),
    Buffer.from("ijklmnopqrst\0mysql_native_password\0", "latin1"),
  ]);
  const head = Buffer.alloc(4);
  head.writeUIntLE(payload.length, 0, 3);
  head[3] = 0;
  s.write(Buffer.concat([head, payload]));
});

/** RESP without AUTH: PING, INFO, DBSIZE, CONFIG GET dir — what attackers try first. */
export const redisLike = serve((s) => {
  let buf = "";
  s.on("data", (d) => {
    buf += d.toString("latin1");
    // Clients pipeline: answer every complete command in the buffer, in order.
    for (;;) {
      const parsed = takeCommand(buf);
      if (!parsed) return;
      buf = buf.slice(parsed.used);
      reply(s, parsed.args);
    }
  });
});

function takeCommand(buf: string): { args: string[]; used: number } | undefined {
  if (!buf.startsWith("*")) {
    const nl = buf.indexOf("\r\n");
    return nl < 0 ? undefined : { args: buf.slice(0, nl).split(" "), used: nl + 2 };
  }
  let at = buf.indexOf("\r\n");
  if (at < 0) return undefined;
  const n = Number(buf.slice(1, at));
  at += 2;
  const args: string[] = [];
  for (let i = 0; i < n; i++) {
    const lenEnd = buf.indexOf("\r\n", at);
    if (lenEnd < 0 || buf[at] !== "$") return undefined;
    const len = Number(buf.slice(at + 1, lenEnd));
    if (buf.length < lenEnd + 2 + len + 2) return undefined;
    args.push(buf.slice(lenEnd + 2, lenEnd + 2 + len));
    at = lenEnd + 2 + len + 2;
  }
  return { args, used: at };
}

function reply(s: net.Socket, args: string[]) {
  const cmd = args[0]?.toUpperCase();
  const bulk = (t: string) => `$${Buffer.byteLength(t)}\r\n${t}\r\n`;
  if (cmd === "PING") s.write("+PONG\r\n");
  else if (cmd === "INFO") s.write(bulk("# Server\r\nredis_version:3.2.12\r\nredis_mode:standalone\r\nos:Linux 4.4.0-210-generic x86_64\r\ntcp_port:6379\r\n"));
  else if (cmd === "DBSIZE") s.write(":42\r\n");
  else if (cmd === "CONFIG") s.write(`*2\r\n${bulk("dir")}${bulk("/var/lib/redis")}`);
  else if (cmd === "QUIT") s.end("+OK\r\n");
  else s.write(`-ERR unknown command '${args[0] ?? ""}'\r\n`);
}

/** MongoDB 3.6-style server without access control (OP_MSG and legacy OP_QUERY). */
export const mongoLike = serve((s) => {
  let buf = Buffer.alloc(0);
  s.on("data", (d) => {
    buf = Buffer.concat([buf, d]);
    while (buf.length >= 4 && buf.length >= buf.readInt32LE(0)) {
      // Not MongoDB's wire protocol (a scanner's HTTP or other probe): hang up.
      if (buf.readInt32LE(0) < 16) return void s.destroy();
      const msg = buf.subarray(0, buf.readInt32LE(0));
      buf = buf.subarray(msg.length);
      const requestId = msg.readInt32LE(4);
      const opCode = msg.readInt32LE(12);
      let cmd: Document = {};
      if (opCode === 2013) cmd = BSON.deserialize(msg.subarray(21, 21 + msg.readInt32LE(21)));
      else if (opCode === 2004) {
        const nameEnd = msg.indexOf(0, 20);
        const at = nameEnd + 1 + 8;
        cmd = BSON.deserialize(msg.subarray(at, at + msg.readInt32LE(at)));
      }
      const answer = mongoAnswer(cmd);
      s.write(opCode === 2013 ? msgReply(requestId, answer) : legacyReply(requestId, answer));
    }
  });
});

function mongoAnswer(cmd: Document): Document {
  const name = Object.keys(cmd)[0]?.toLowerCase();
  if (name === "ismaster" || name === "hello") return { ismaster: true, maxBsonObjectSize: 16777216, maxWireVersion: 6, minWireVersion: 0, ok: 1 };
  if (name === "buildinfo") return { version: "3.6.8", gitVersion: "8e540c0b6db93ce994cc548f000900bdc740f80a", ok: 1 };
  if (name === "listdatabases")
    return {
      databases: [
        { name: "admin", sizeOnDisk: 32768, empty: false },
        { name: "customers", sizeOnDisk: 1048576, empty: false },
      ],
      totalSize: 1081344,
      ok: 1,
    };
  return { ok: 0, errmsg: `no such command: '${name ?? ""}'`, code: 59 };
}

function msgReply(responseTo: number, doc: Document): Buffer {
  const body = Buffer.from(BSON.serialize(doc));
  const head = Buffer.alloc(21);
  head.writeInt32LE(21 + body.length, 0);
  head.writeInt32LE(1, 4);
  head.writeInt32LE(responseTo, 8);
  head.writeInt32LE(2013, 12);
  return Buffer.concat([head, body]);
}

function legacyReply(responseTo: number, doc: Document): Buffer {
  const body = Buffer.from(BSON.serialize(doc));
  const head = Buffer.alloc(36);
  head.writeInt32LE(36 + body.length, 0);
  head.writeInt32LE(1, 4);
  head.writeInt32LE(responseTo, 8);
  head.writeInt32LE(1, 12);
  head.writeInt32LE(1, 32); // numberReturned
  return Buffer.concat([head, body]);
}

/**
 * PostgreSQL's first exchange: a startup message, answered per `auth`. "trust" (pg_hba.conf's
 * trust method) says AuthenticationOk and ReadyForQuery; "scram" asks for SCRAM-SHA-256, as a
 * hardened server does. No query is ever served.
 */
const postgresServer = (auth: "trust" | "scram") =>
  serve((s) => {
    let buf = Buffer.alloc(0);
    s.on("data", (d) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 4) {
        // The startup message has no type byte; later messages ('X' Terminate) do.
        const typed = buf[0]! >= 0x41;
        const len = typed ? 1 + buf.readUInt32BE(1) : buf.readUInt32BE(0);
        if (buf.length < len) return;
        const msg = buf.subarray(0, len);
        buf = buf.subarray(len);
        if (typed) {
          if (msg[0] === 0x58) s.end();
          continue;
        }
        const code = msg.readUInt32BE(4);
        if (code === 80877103)
          s.write("N"); // SSLRequest: no TLS here
        else if (auth === "trust") s.write(Buffer.from("520000000800000000" + "5a0000000549", "hex"));
        else s.write(Buffer.concat([Buffer.from("52000000170000000a", "hex"), Buffer.from("SCRAM-SHA-256\0\0", "latin1")]));
      }
    });
  });

export const postgresTrust = postgresServer("trust");
export const postgresScram = postgresServer("scram");
