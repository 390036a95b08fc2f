/**
 * The items of a 'Load more' page that are not on screen yet. Pages are counted from the list as
 * it is when each is fetched: an item published since the first page pushes the last one shown
 * onto the next page, and it must not be shown twice (nor its React key used twice).
 */
export function unseenItems<Item extends { id: string }>(
  shown: readonly Item[],
  page: readonly Item[],
): Item[] {
  const shownIds = new Set(shown.map((item) => item.id));
  return page.filter((item) => !shownIds.has(item.id));
}
