import { data } from "react-router";
import { eventSaveErrorMessage } from "~/lib/db-errors";
import { CategoryFormSchema, EventTypeFormSchema } from "~/lib/forms/taxonomy-schema";
import { logger } from "~/lib/logger.server";
import { requireRole } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import {
  type EntityActionData,
  listUrlOf,
  saveFromForm,
} from "~/models/shared/entity-actions.server";
import {
  createTaxonomyItem,
  deleteTaxonomyItem,
  getTaxonomyItem,
  listTaxonomy,
  type TaxonomyKind,
  updateTaxonomyItem,
} from "~/models/taxonomy/taxonomy.server";

/**
 * The server side of the 'Categories & Types' screens: one implementation for categories and
 * event types (same rules, spec §5), used by the route modules of both. Loads and saves that
 * fail show the server's message (spec §8).
 */
const LIST_URL = "/admin/event-categories";
const NOUN = { category: "category", type: "type" } as const;

/** Loader of the list: both lists filtered by one search. */
export async function loadTaxonomies(request: Request) {
  await requireRole(request, "editor");
  const search = new URL(request.url).searchParams.get("search")?.trim() ?? "";
  try {
    const [categories, types] = await Promise.all([
      listTaxonomy("category", search),
      listTaxonomy("type", search),
    ]);
    return { search, categories, types, loadError: null };
  } catch (error) {
    logger.error({ err: error }, "categories and types failed to load");
    return { search, categories: [], types: [], loadError: eventSaveErrorMessage(error) };
  }
}

/** Loader of an edit screen: the item, or 404. */
export async function loadTaxonomyItem(request: Request, kind: TaxonomyKind, id: string) {
  await requireRole(request, "editor");
  const item = await getTaxonomyItem(kind, id);
  if (!item) throw data(null, { status: 404 });
  return { item };
}

/** Action of the new and edit screens (`id` given: update); both return to the list. */
export function saveTaxonomyItem(request: Request, kind: TaxonomyKind, id?: string) {
  return saveFromForm(request, {
    role: "editor",
    schema: kind === "category" ? CategoryFormSchema : EventTypeFormSchema,
    noun: NOUN[kind],
    listUrl: LIST_URL,
    id,
    create: (value, ctx) => createTaxonomyItem(kind, value, ctx),
    update: (itemId, value, ctx) => updateTaxonomyItem(kind, itemId, value, ctx),
    label: (saved) => saved.name,
    showServerMessage: true,
  });
}

/** Action of the list: delete a category or a type; refused while events use it. */
export async function deleteFromTaxonomyList(request: Request) {
  const user = await requireRole(request, "editor");
  const formData = await request.formData();
  const intent = formData.get("intent");
  const kind: TaxonomyKind | null =
    intent === "delete-category" ? "category" : intent === "delete-type" ? "type" : null;
  if (!kind) {
    return data<EntityActionData>(
      { error: { title: "Error", description: "Unknown action." } },
      { status: 400 },
    );
  }
  const noun = NOUN[kind];
  let result: Awaited<ReturnType<typeof deleteTaxonomyItem>>;
  try {
    result = await deleteTaxonomyItem(kind, String(formData.get("id") ?? ""), {
      id: user.id,
      role: user.role,
      request,
    });
  } catch (error) {
    logger.error({ err: error }, `${noun} delete failed`);
    return data<EntityActionData>(
      { error: { title: `Failed to delete ${noun}`, description: eventSaveErrorMessage(error) } },
      { status: 500 },
    );
  }
  if (result.status === "in_use") {
    return data<EntityActionData>({ error: { title: result.message } }, { status: 409 });
  }
  if (result.status === "not_found") {
    return data<EntityActionData>(
      { error: { title: "Error", description: `This ${noun} no longer exists.` } },
      { status: 404 },
    );
  }
  return redirectWithToast(listUrlOf(request, LIST_URL), {
    type: "success",
    title: kind === "category" ? "Category deleted" : "Type deleted",
    description: `${result.name} has been successfully deleted.`,
  });
}
