import { logger } from "~/lib/logger.server";
import type { Route } from "./+types/not-found";

// Any unknown path (spec §2.1): a 404 with 'Oops! Page not found'; the path is logged.
export function loader({ request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  logger.warn({ path: pathname }, "404 Error: User attempted to access non-existent route");
  throw new Response("Not Found", { status: 404 });
}

export function action({ request }: Route.ActionArgs) {
  return loader({ request } as Route.LoaderArgs);
}

export default function NotFound() {
  return null; // the loader always throws; the root error boundary renders the 404 screen
}
