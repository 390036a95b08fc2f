import { env } from "~/lib/env.server";
import { buildRobotsTxt } from "~/routes/public/events/feeds.server";

export function loader() {
  return new Response(buildRobotsTxt(env().BASE_URL), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
    },
  });
}
