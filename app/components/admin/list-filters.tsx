import { useCallback, useEffect, useRef } from "react";
import { Form, useFetchers, useLocation, useNavigation, useSubmit } from "react-router";
import { Search } from "~/components/icons";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";

export type ListFilter = {
  name: string;
  label: string;
  value: string;
  options: ReadonlyArray<{ value: string; label: string }>;
};

/**
 * Search box plus select filters of an admin list, kept in the URL query (GET form: works
 * without JavaScript through the Search button; with it, typing and selecting apply at once
 * and replace the history entry). A search that falls due while another form on the page is
 * still working (a delete confirmed in a dialog, say) waits for it: starting a navigation then
 * would swallow that form's redirect and the toast it carries.
 */
export function ListFilters({
  searchLabel,
  searchPlaceholder,
  search,
  searchName = "search",
  filters = [],
}: {
  searchLabel: string;
  searchPlaceholder?: string;
  search: string;
  searchName?: string;
  filters?: readonly ListFilter[];
}) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const location = useLocation();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const deferred = useRef(false);
  const cancel = useCallback(() => {
    clearTimeout(timer.current);
    deferred.current = false;
  }, []);
  // Following a link while a search is still due: the link wins. Router state reaches this
  // component only after the click (inside a transition), too late to stop the timer by itself.
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest("a[href]")) cancel();
    };
    document.addEventListener("click", onClick, true);
    return () => {
      document.removeEventListener("click", onClick, true);
      cancel();
    };
  }, [cancel]);
  // A search still waiting to apply must not pull the user back after they left the page.
  const leaving =
    navigation.state !== "idle" && navigation.location?.pathname !== location.pathname;
  useEffect(() => {
    if (leaving) cancel();
  }, [leaving, cancel]);

  const fetcherBusy = useFetchers().some((fetcher) => fetcher.state !== "idle");
  const fetcherBusyRef = useRef(fetcherBusy);
  fetcherBusyRef.current = fetcherBusy;

  function run() {
    if (fetcherBusyRef.current) {
      deferred.current = true;
      return;
    }
    if (formRef.current) submit(formRef.current, { replace: true, preventScrollReset: true });
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: run reads refs; only the busy flag matters
  useEffect(() => {
    if (!fetcherBusy && deferred.current) {
      deferred.current = false;
      run();
    }
  }, [fetcherBusy]);

  function apply(delay: number) {
    cancel();
    timer.current = setTimeout(run, delay);
  }

  return (
    <Form
      ref={formRef}
      method="get"
      role="search"
      className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end"
      onChange={(event) => apply((event.target as HTMLElement).tagName === "SELECT" ? 0 : 300)}
      // The Search button applies the query now; a typing timer still running would repeat it
      // later and could cut off wherever the user went next.
      onSubmit={cancel}
    >
      <div className="grid flex-1 gap-2">
        <Label htmlFor="list-search">{searchLabel}</Label>
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id="list-search"
            type="search"
            name={searchName}
            defaultValue={search}
            placeholder={searchPlaceholder}
            className="pl-9"
          />
        </div>
      </div>
      {filters.map((filter) => (
        <div key={filter.name} className="grid gap-2 sm:w-48">
          <Label htmlFor={`list-filter-${filter.name}`}>{filter.label}</Label>
          <NativeSelect
            id={`list-filter-${filter.name}`}
            name={filter.name}
            defaultValue={filter.value}
          >
            {filter.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        </div>
      ))}
      <Button type="submit" variant="outline">
        Search
      </Button>
    </Form>
  );
}
