import net from "node:net";

/*
 * The benchmark's target: listens on the given ports of the given address (inside the lab
 * namespace), accepts and closes. Prints "ready" once every port listens; exits when its
 * parent closes stdin or after a hard limit, so it never outlives the benchmark.
 */
const [address, list] = process.argv.slice(2);
if (!address || !list) throw new Error("usage: listeners.ts <address> <port,port,...>");
const ports = list.split(",").map(Number);
await Promise.all(
  ports.map(
    (port) =>
      new Promise<void>((resolve, reject) => {
        const server = net.createServer((s) => s.on("error", () => undefined).end());
        server.once("error", reject);
        server.listen({ host: address, port, backlog: 4096 }, () => resolve());
      }),
  ),
);
process.stdout.write("ready\n");
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
setTimeout(() => process.exit(0), 30 * 60_000).unref();
