import { Link, useLocation } from "react-router";
import { ChevronLeft, ChevronRight } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/lib/utils";

/**
 * Previous/next links under a long admin list, keeping the search and filters in the URL.
 * Renders nothing when everything fits on one page.
 */
export function ListPagination({
  page,
  pageSize,
  total,
}: {
  page: number;
  pageSize: number;
  total: number;
}) {
  const location = useLocation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const href = (target: number) => {
    const params = new URLSearchParams(location.search);
    if (target <= 1) params.delete("page");
    else params.set("page", String(target));
    const query = params.toString();
    return query ? `?${query}` : location.pathname;
  };
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const linkClass = cn(buttonVariants({ variant: "outline", size: "sm" }));
  return (
    <nav aria-label="Pagination" className="mt-6 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-muted-foreground">
        Showing {first}–{last} of {total} (page {page} of {pages})
      </p>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link to={href(page - 1)} className={linkClass} rel="prev">
            <ChevronLeft aria-hidden />
            Previous
          </Link>
        ) : null}
        {page < pages ? (
          <Link to={href(page + 1)} className={linkClass} rel="next">
            Next
            <ChevronRight aria-hidden />
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
