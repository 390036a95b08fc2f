// The site's live figures (issue 30 item 8, decision 0095): the member and event counts shown on
// the home page, /about, /membership, /events, the dashboard and /admin/members come from here,
// one query and one definition per count, so no two pages disagree.
import { getEventListingStats } from "~/models/events/queries.server";
import { countCurrentMembers } from "~/models/membership/queries.server";

export type SiteFigures = {
  /** Published events (what /events lists: its "Total Events"). */
  events: number;
  /** People with member benefits now, Corporate seats included. */
  members: number;
};

export async function getSiteFigures(): Promise<SiteFigures> {
  const [listing, members] = await Promise.all([getEventListingStats(), countCurrentMembers()]);
  return { events: listing.totalEvents, members };
}
