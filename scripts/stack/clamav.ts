// ClamAV's clamd for grc's malware check of evidence uploads: the machine's clamd when it has one,
// else Debian's packages (clamav-daemon, libclamav12, libmspack0) fetched once with
// `apt-get download` and unpacked with `dpkg -x` into the cache folder, no root install needed.
//
// Signature downloads (freshclam) are not possible here, so the stack's clamd loads a database
// of its own holding one signature: the EICAR anti-malware test file's MD5. Production runs clamd
// with freshclam's databases instead (docs/decisions.md "Compliance (grc)").

import fs from "node:fs";
import fsp from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { cacheDir } from "../lib/stack-state.ts";
import { removeLeftovers, withLock, withProgress } from "./lock.ts";
import { freePorts, run, terminate, which } from "./process.ts";
import { spawnServer, waitReady, withPortRetry, type StartContext, type Started } from "./servers.ts";

const PACKAGES = ["clamav-daemon", "libclamav12", "libmspack0"];
const READY_TIMEOUT_MS = 60_000;

/**
 * The EICAR test file (https://www.eicar.org), as an MD5 hash signature (`.hdb`: md5:size:name).
 * The file itself is harmless by design; every scanner reports it.
 */
export const EICAR_SIGNATURE = "44d88612fea8a8f36de82e1278abb02f:68:Eicar-Test-Signature";

export interface ClamdBinaries {
  clamd: string;
  /** Library folder for the unpacked packages; undefined for the machine's own clamd. */
  libDir?: string;
  version: string;
}

function debArch(): string {
  const arch = ({ x64: "amd64", arm64: "arm64" } as Record<string, string>)[process.arch];
  if (process.platform !== "linux" || !arch) throw new Error(`no Debian ClamAV packages for ${process.platform}/${process.arch}`);
  return arch;
}

async function versionOf(bin: ClamdBinaries): Promise<string> {
  // Without -c clamd parses /etc/clamav/clamd.conf first, which an unpacked install lacks.
  const out = await run(bin.clamd, ["-c", "/dev/null", "--version"], { env: envFor(bin) });
  return out.trim().split("/")[0] ?? out.trim();
}

const envFor = (bin: Pick<ClamdBinaries, "libDir">): NodeJS.ProcessEnv =>
  bin.libDir ? { ...process.env, LD_LIBRARY_PATH: [bin.libDir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(":") } : process.env;

/** clamd to run: the machine's, or Debian's packages unpacked once into the cache folder. */
export async function ensureClamd(log: (line: string) => void): Promise<ClamdBinaries> {
  const system = which("clamd") ?? (fs.existsSync("/usr/sbin/clamd") ? "/usr/sbin/clamd" : undefined);
  if (system) {
    const bin = { clamd: system, version: "" };
    return { ...bin, version: await versionOf(bin) };
  }
  const home = path.join(cacheDir(), `clamav-${debArch()}`);
  const installed = (): ClamdBinaries => ({
    clamd: path.join(home, "usr", "sbin", "clamd"),
    libDir: path.join(home, "usr", "lib", `${process.arch === "x64" ? "x86_64" : "aarch64"}-linux-gnu`),
    version: "",
  });
  if (!fs.existsSync(installed().clamd)) {
    await withLock("clamav", log, async () => {
      if (fs.existsSync(installed().clamd)) return;
      const aptGet = which("apt-get");
      const dpkg = which("dpkg");
      if (!aptGet || !dpkg) throw new Error("ClamAV is not installed and apt-get/dpkg are not available to fetch Debian's packages");
      await removeLeftovers(`${home}.tmp-`);
      const tmp = `${home}.tmp-${process.pid}`;
      await fsp.mkdir(path.join(tmp, "debs"), { recursive: true });
      log(`installing ClamAV (Debian packages ${PACKAGES.join(", ")}) into ${home} (first run only)`);
      await withProgress(log, "apt-get download", () => run(aptGet, ["download", ...PACKAGES], { cwd: path.join(tmp, "debs") }));
      for (const deb of await fsp.readdir(path.join(tmp, "debs"))) await run(dpkg, ["-x", path.join(tmp, "debs", deb), tmp]);
      await fsp.rm(path.join(tmp, "debs"), { recursive: true, force: true });
      await fsp.rm(home, { recursive: true, force: true });
      await fsp.rename(tmp, home);
    });
  }
  const bin = installed();
  return { ...bin, version: await versionOf(bin) };
}

/** clamd answers PING with PONG once its database is loaded. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    let reply = "";
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(false));
    socket.once("connect", () => socket.write("zPING\0"));
    socket.on("data", (d) => {
      reply += d.toString();
    });
    socket.once("end", () => resolve(reply.replace(/\0/g, "").trim() === "PONG"));
  });
}

export async function startClamd(ctx: StartContext, bin: ClamdBinaries): Promise<Started> {
  const dir = path.join(ctx.dataDir, "clamav");
  const db = path.join(dir, "db");
  await fsp.mkdir(db, { recursive: true });
  await fsp.writeFile(path.join(db, "vulnscan-test.hdb"), `${EICAR_SIGNATURE}\n`);
  const outFile = path.join(dir, "clamd.log");
  return withPortRetry(ctx, "clamd", async () => {
    const [port] = (await freePorts(1)) as [number];
    const conf = path.join(dir, "clamd.conf");
    await fsp.writeFile(
      conf,
      [
        "Foreground yes",
        `DatabaseDirectory ${db}`,
        "TCPAddr 127.0.0.1",
        `TCPSocket ${port}`,
        // grc's uploads are at most 10 MiB; a stream beyond this limit is refused, never passed.
        "StreamMaxLength 11M",
        "MaxThreads 4",
        "SelfCheck 0",
        "",
      ].join("\n"),
    );
    // The unpacked packages' libraries go on clamd's library path (env(1): spawnServer keeps our env).
    const [command, args] = bin.libDir
      ? [which("env") ?? "/usr/bin/env", [`LD_LIBRARY_PATH=${envFor(bin).LD_LIBRARY_PATH}`, bin.clamd, "-c", conf]]
      : [bin.clamd, ["-c", conf]];
    const managed = spawnServer(ctx, "clamd", command, args, outFile);
    try {
      await waitReady(ctx, managed, "clamd", READY_TIMEOUT_MS, [outFile], () => pong(port));
    } catch (error) {
      await terminate(managed);
      throw error;
    }
    return { address: `127.0.0.1:${port}`, description: `ClamAV ${bin.version.replace(/^ClamAV /, "")} (test signatures only)`, managed };
  });
}
