import type { PersonActor } from "~/lib/lifecycle.server";
import {
  createTaxonomyItem,
  deleteTaxonomyItem,
  getTaxonomyItem,
  listTaxonomy,
  type TaxonomyInput,
  updateTaxonomyItem,
} from "./taxonomy.server";

/** Event types in the back office (spec §2.15 'Categories & Types'). */
export type EventTypeInput = Omit<TaxonomyInput, "industrySector">;

export const listEventTypes = (search?: string | null) => listTaxonomy("type", search);
export const getEventType = (id: string) => getTaxonomyItem("type", id);
export const createEventType = (input: EventTypeInput, ctx: PersonActor) =>
  createTaxonomyItem("type", input, ctx);
export const updateEventType = (id: string, input: EventTypeInput, ctx: PersonActor) =>
  updateTaxonomyItem("type", id, input, ctx);
export const deleteEventType = (id: string, ctx: PersonActor) =>
  deleteTaxonomyItem("type", id, ctx);
