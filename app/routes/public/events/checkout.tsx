import { redirect } from "react-router";
import type { Route } from "./+types/checkout";

// The ticket checkout became registration (issue 15): old links and bookmarks land there.
export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/events/${encodeURIComponent(params.slug)}/register`, 301);
}
