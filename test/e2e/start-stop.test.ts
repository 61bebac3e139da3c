// `npm start` stops cleanly (issue 31): Ctrl-C (SIGINT to its process group) stops every process it
// started within 10 s, restarts none of them on the way, and leaves no process or port behind.
// The supervisor runs compiled, as `npm start` runs it, with a stack and data of its own; on that
// new cluster it creates the topics before the services start, and no service meets one unserved.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { buildStaleReason, entryOf } from "../../scripts/lib/build.js";
import { freePort } from "../../scripts/lib/net.js";
import { launchStart, type RunningStart } from "../../scripts/lib/start-process.js";
import { Topics } from "../../services/kit/src/topics.js";

const home = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-start-stop-"));
let run: RunningStart | undefined;

afterAll(async () => {
  if (run) {
    // Only if the test failed half-way: a SIGTERM stops it as SIGINT would, SIGKILL if that hangs.
    try {
      process.kill(run.pid, "SIGTERM");
    } catch {
      // already gone
    }
    const pid = run.pid;
    const kill = setTimeout(() => process.kill(pid, "SIGKILL"), 30_000);
    await run.exited;
    clearTimeout(kill);
  }
  fs.rmSync(home, { recursive: true, force: true });
});

const alive = (pid: number) => fs.existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, "utf8"));

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

it("Ctrl-C stops the stack, every service and the gateway within 10 s, restarting none, leaving no process or port", { timeout: 240_000 }, async () => {
  expect(fs.existsSync(entryOf("start")), "the global setup builds dist/").toBe(true);
  // Current once built, so `npm start` starts without building again (and loading esbuild).
  expect(buildStaleReason()).toBeUndefined();
  const port = await freePort();
  run = launchStart({ home, port, timeoutMs: 200_000 });
  const { processes, stackPorts } = await run.ready;
  expect(processes.map((p) => p.name).sort()).toEqual(["auth", "findings", "gateway", "grc", "scan-orchestrator", "scanner", "webhook-dispatcher"]);
  expect(stackPorts.length).toBeGreaterThanOrEqual(2);
  for (const p of processes) expect(alive(p.pid), p.name).toBe(true);
  expect(await bindable(port)).toBe(false);
  // A new cluster: every topic is made (and served) before the services start, so none of them
  // meets a partition without a serving leader.
  expect(run.output()).toContain(`[start] created ${2 * Object.keys(Topics).length} Kafka topics`);
  const logs = path.join(home, "logs");
  for (const file of fs.readdirSync(logs))
    expect(fs.readFileSync(path.join(logs, file), "utf8"), file).not.toMatch(/not the leader for that topic-partition|does not host this topic-partition/);

  const t0 = Date.now();
  run.interrupt();
  const exit = await Promise.race([run.exited, new Promise<"late">((r) => setTimeout(() => r("late"), 10_000))]);
  const elapsed = Date.now() - t0;
  expect(exit, `still running 10 s after SIGINT:\n${run.output().slice(-2000)}`).not.toBe("late");
  expect(exit).toEqual({ code: 0, signal: null });
  expect(elapsed).toBeLessThan(10_000);
  const output = run.output();
  run = undefined;
  expect(output).toMatch(/\[start\] stopping…\n\[start\] stopped\n/);
  // A process that exits during the stop is not a crash: nothing is restarted, or said to be.
  expect(output).not.toMatch(/restart/i);

  for (const p of processes) expect(alive(p.pid), `${p.name} (pid ${p.pid}) outlived the supervisor`).toBe(false);
  for (const p of [port, ...stackPorts]) expect(await bindable(p), `port ${p} still taken`).toBe(true);
});
