// The node_modules of the container image: only the packages the bundles still load at run time
// (what esbuild left external and is installed: native addons, packages that read files beside
// themselves, the PDF writer) and their own dependencies, copied from the build's install, so
// the versions are the lockfile's. The bundles hold everything else; `npm ci --omit=dev` gave
// the image 405 packages (226 MB), most of them already inside the bundles.
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./root.js";

/**
 * Packages our code reads files of (`require.resolve`) without loading their code: only these
 * files and the package's manifest go in, none of their dependencies (ReDoc's page bundle, 1 MB,
 * stands alone; the package's dependencies are its build tooling).
 */
export const FILES_ONLY: Record<string, string[]> = { redoc: ["bundles/redoc.standalone.js"] };

interface Manifest {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** Where Node would find `name` when imported from `fromDir`: the nearest node_modules up to the checkout's. */
function packageDir(name: string, fromDir: string, top: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (fs.existsSync(path.join(candidate, "package.json"))) return candidate;
    if (dir === top || dir === path.dirname(dir)) return undefined;
  }
}

/** The directory holding the checkout's node_modules (another checkout's when it is a link, as in a worktree). */
const topOf = (root: string) => path.dirname(fs.realpathSync(path.join(root, "node_modules")));

/**
 * The directories (under the checkout's node_modules) of `roots` and everything they depend on.
 * A missing optional dependency (another platform's native build) or optional peer is skipped;
 * a missing required one is an error, as it would be at run time.
 */
export function runtimeClosure(roots: string[], root = ROOT): string[] {
  const top = topOf(root);
  const found = new Set<string>();
  const visit = (name: string, fromDir: string, optional: boolean, via: string) => {
    const dir = packageDir(name, fromDir, top);
    if (!dir) {
      if (optional) return;
      throw new Error(`${name} (needed by ${via}) is not installed`);
    }
    if (found.has(dir)) return;
    found.add(dir);
    const m = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest;
    for (const dep of Object.keys(m.dependencies ?? {})) visit(dep, dir, name in (m.optionalDependencies ?? {}), name);
    for (const dep of Object.keys(m.optionalDependencies ?? {})) visit(dep, dir, true, name);
    for (const dep of Object.keys(m.peerDependencies ?? {})) visit(dep, dir, m.peerDependenciesMeta?.[dep]?.optional ?? false, name);
  };
  for (const name of roots) visit(name, top, false, "a bundle");
  return [...found].sort();
}

/** Copies the closure of `roots`, and FILES_ONLY's files, into `outDir`/node_modules; returns packages and bytes. */
export function copyRuntimeModules(roots: string[], outDir: string, root = ROOT): { packages: number; bytes: number } {
  const top = topOf(root);
  const modules = path.join(outDir, "node_modules");
  fs.rmSync(modules, { recursive: true, force: true });
  const dirs = runtimeClosure(roots, root);
  for (const dir of dirs)
    fs.cpSync(dir, path.join(outDir, path.relative(top, dir)), {
      recursive: true,
      // A package's own node_modules holds other packages: each is copied if the closure has it.
      filter: (src) => path.basename(src) !== "node_modules" || src === dir,
    });
  for (const [name, files] of Object.entries(FILES_ONLY)) {
    const dir = packageDir(name, top, top);
    if (!dir) throw new Error(`${name} is not installed`);
    for (const file of ["package.json", ...files]) {
      const to = path.join(outDir, path.relative(top, dir), file);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(path.join(dir, file), to);
    }
  }
  const files = fs.readdirSync(modules, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  const bytes = files.reduce((sum, e) => sum + fs.statSync(path.join(e.parentPath ?? e.path, e.name)).size, 0);
  return { packages: dirs.length + Object.keys(FILES_ONLY).length, bytes };
}
