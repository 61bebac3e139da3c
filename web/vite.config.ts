import { defineConfig } from "vite";

// No framework plugin: the bundler's own transform handles TSX with React's automatic runtime.
// Hashed file names under assets/ let the gateway cache them forever (gateway/src/plugins/console.ts).
export default defineConfig({
  base: "/",
  build: { outDir: "dist", emptyOutDir: true, assetsDir: "assets", sourcemap: false, modulePreload: { polyfill: false } },
  server: { proxy: { "/api": "http://127.0.0.1:8080", "/docs": "http://127.0.0.1:8080", "/openapi.json": "http://127.0.0.1:8080" } },
});
