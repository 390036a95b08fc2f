import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { precompress } from "./scripts/precompress";

export default defineConfig(({ isSsrBuild }) => ({
  // The production server entry (server/app.ts) is bundled together with the routes, so the
  // database client and auth are one module graph shared by the Express app and every loader.
  build: isSsrBuild ? { rollupOptions: { input: "./server/app.ts" } } : undefined,
  resolve: { tsconfigPaths: true },
  // The client's text assets get brotli and gzip copies at build time (decision 0035).
  plugins: [tailwindcss(), reactRouter(), ...(isSsrBuild ? [] : [precompress()])],
}));
