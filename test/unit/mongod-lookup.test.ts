// `npm start` on a machine with no mongod: the downloader's library (which loads the mongodb
// driver) stays unloaded unless there is a binary it may have cached or a site to download from.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const loaded = vi.hoisted(() => ({ count: 0, found: undefined as string | undefined }));
vi.mock("mongodb-memory-server-core", () => {
  loaded.count++;
  return {
    DryMongoBinary: { getEnsuredOptions: (o: object) => o, locateBinary: async () => loaded.found },
    MongoBinary: { getPath: async () => Promise.reject(new Error("no download in a unit test")) },
  };
});

import { downloadedMongod, mongodbDownloadDir, mongodMayBeCached } from "../../scripts/stack/mongodb.js";

const saved = { ...process.env };
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-mongod-lookup-"));
  for (const k of Object.keys(process.env)) if (k.startsWith("MONGOMS_") || k === "VULNSCAN_MONGODB_DOWNLOAD") delete process.env[k];
  process.env.VULNSCAN_CACHE_DIR = path.join(dir, "cache");
  // The downloader's own caches (home, node_modules): this machine's must not decide the tests.
  vi.spyOn(os, "homedir").mockReturnValue(path.join(dir, "home"));
  vi.spyOn(process, "cwd").mockReturnValue(path.join(dir, "repo"));
  // The site was found unreachable a moment ago: nothing in these tests asks it.
  fs.mkdirSync(mongodbDownloadDir(), { recursive: true });
  fs.writeFileSync(path.join(mongodbDownloadDir(), "site-unreachable"), new Date().toISOString());
  loaded.count = 0;
  loaded.found = undefined;
});
afterEach(() => {
  vi.restoreAllMocks();
  process.env = { ...saved };
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("looking for a downloaded mongod", () => {
  it("does not load the downloader when nothing can be cached and the site is unreachable", async () => {
    expect(mongodMayBeCached()).toBe(false);
    expect(await downloadedMongod(() => undefined)).toBeUndefined();
    expect(loaded.count).toBe(0);
  });

  it("asks the downloader when a binary it fetched before is in the cache, and uses it", async () => {
    const bin = path.join(mongodbDownloadDir(), "mongod-x64-ubuntu2204-7.0.24");
    fs.writeFileSync(bin, "");
    loaded.found = bin;
    expect(mongodMayBeCached()).toBe(true);
    expect(await downloadedMongod(() => undefined)).toBe(bin);
    expect(loaded.count).toBe(1);
  });

  it("asks the downloader when its own settings may point elsewhere (MONGOMS_*)", () => {
    process.env.MONGOMS_SYSTEM_BINARY = "/opt/mongo/bin/mongod";
    expect(mongodMayBeCached()).toBe(true);
  });

  it("finds a binary in the downloader's home and node_modules caches too", () => {
    for (const cache of [path.join(dir, "home", ".cache", "mongodb-binaries"), path.join(dir, "repo", "node_modules", ".cache", "mongodb-memory-server")]) {
      fs.mkdirSync(cache, { recursive: true });
      const bin = path.join(cache, "mongod-x64-ubuntu2204-7.0.24");
      fs.writeFileSync(bin, "");
      expect(mongodMayBeCached()).toBe(true);
      fs.rmSync(bin);
      expect(mongodMayBeCached()).toBe(false);
    }
  });
});
