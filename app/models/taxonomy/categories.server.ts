import type { PersonActor } from "~/lib/lifecycle.server";
import {
  createTaxonomyItem,
  deleteTaxonomyItem,
  getTaxonomyItem,
  listTaxonomy,
  type TaxonomyInput,
  updateTaxonomyItem,
} from "./taxonomy.server";

/** Event categories in the back office (spec §2.15 'Categories & Types'). */
export type CategoryInput = TaxonomyInput;

export const listCategories = (search?: string | null) => listTaxonomy("category", search);
export const getCategory = (id: string) => getTaxonomyItem("category", id);
export const createCategory = (input: CategoryInput, ctx: PersonActor) =>
  createTaxonomyItem("category", input, ctx);
export const updateCategory = (id: string, input: CategoryInput, ctx: PersonActor) =>
  updateTaxonomyItem("category", id, input, ctx);
export const deleteCategory = (id: string, ctx: PersonActor) =>
  deleteTaxonomyItem("category", id, ctx);
