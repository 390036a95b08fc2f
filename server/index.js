// Production entry: `npm start`. The built bundle (server/app.ts + routes) does the rest.
import path from "node:path";
import { pathToFileURL } from "node:url";

process.env.NODE_ENV ??= "production";
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const serverBuild = await import(pathToFileURL(path.join(buildDir, "server", "index.js")).href);

await serverBuild.start({
  build: await serverBuild.loadProductionBuild(),
  clientDir: path.join(buildDir, "client"),
});
