import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { Supervised } from "../../scripts/lib/supervisor.js";

const idle = () => spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
const alive = (pid: number | undefined) => {
  try {
    return pid !== undefined && process.kill(pid, 0);
  } catch {
    return false;
  }
};
async function until(what: string, ok: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("Supervised", () => {
  it("leaves a process that exits alone when restarts are off", async () => {
    const s = new Supervised(idle, { name: "scanner", restart: false, firstDelayMs: 10 });
    await until("started", () => alive(s.child.pid));
    const pid = s.child.pid;
    process.kill(pid!, "SIGKILL");
    await until("exited", () => s.child.exitCode !== null || s.child.signalCode !== null);
    await new Promise((r) => setTimeout(r, 100));
    expect([s.restarts, s.child.pid]).toEqual([0, pid]);
  });

  it("restarts a process killed with SIGKILL, says so, and stops it for good on stop()", async () => {
    const said: string[] = [];
    const s = new Supervised(idle, { name: "findings", restart: true, say: (l) => said.push(l), firstDelayMs: 100 });
    const first = s.child.pid;
    await until("started", () => alive(first));
    process.kill(first!, "SIGKILL");
    await until("restarted", () => s.restarts === 1 && alive(s.child.pid));
    expect(s.child.pid).not.toBe(first);
    expect(said).toEqual([expect.stringMatching(/^findings exited \(SIGKILL\); restarting it in 0\.1 s$/), `findings restarted (pid ${s.child.pid})`]);
    const second = s.child.pid;
    await s.stop();
    expect(alive(second)).toBe(false);
    expect(s.restarts).toBe(1);
  });

  it("backs off: each quick failure doubles the delay", async () => {
    const said: string[] = [];
    const crash = () => spawn(process.execPath, ["-e", "process.exit(3)"], { stdio: "ignore" });
    const s = new Supervised(crash, { name: "grc", restart: true, say: (l) => said.push(l), firstDelayMs: 100 });
    await until("three exits", () => said.filter((l) => l.includes("exited")).length >= 3);
    s.kill();
    expect(said.filter((l) => l.includes("exited")).slice(0, 3)).toEqual([
      "grc exited (code 3); restarting it in 0.1 s",
      "grc exited (code 3); restarting it in 0.2 s",
      "grc exited (code 3); restarting it in 0.4 s",
    ]);
  });
});
