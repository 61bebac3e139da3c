import net from "node:net";

/** Sends one command to the lab's real redis-server over RESP and returns its first reply line(s). */
export function redisCommand(host: string, port: number, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host, port });
    let out = "";
    s.setTimeout(3000, () => s.destroy(new Error("redis did not answer")));
    s.on("data", (d) => {
      out += d.toString();
      if (out.includes("\r\n")) s.end();
    });
    s.on("end", () => resolve(out));
    s.on("error", reject);
    s.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`);
  });
}
