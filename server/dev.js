// Development entry: `npm run dev` — Vite middleware with HMR around the same server code.
import { createServer } from "vite";

process.env.NODE_ENV ??= "development";
const vite = await createServer({ server: { middlewareMode: true } });
const { start } = await vite.ssrLoadModule("./server/app.ts");
await start({
  build: () => vite.ssrLoadModule("virtual:react-router/server-build"),
  devMiddleware: vite.middlewares,
});
