// `npm run lab`: the scan lab the tests use (test/lab), started for a person trying the product:
// a weak host with planted weaknesses and a hardened host with none, on a network namespace of
// their own when the machine allows it (root and iproute2), else on 127.0.0.1 with the ports it
// prints. Prints what to scan, then runs until Ctrl-C and removes everything it started.
import { startLab } from "../test/lab/lab.js";

const lab = await startLab();
const hosts = [
  ["weak host (planted weaknesses)", lab.weak],
  ["hardened host (nothing to find)", lab.hardened],
] as const;
console.error(`[lab] ${lab.note}`);
for (const [what, h] of hosts) {
  console.log(`${what}: target ${h.address}  ports ${h.ports.join(",")}`);
}
console.log(`scan it: {"target":"${lab.weak.address}","ports":"${lab.weak.ports.join(",")}","scan_type":"full","authorized":true} — Ctrl-C stops the lab`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await lab.stop().catch((err: Error) => console.error(`[lab] stop: ${err.message}`));
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
