import { Slot } from "radix-ui";
import { createContext, useContext, useId, useState } from "react";
import { cn } from "~/lib/utils";

/*
 * Tabs after the WAI-ARIA tabs pattern (automatic activation): a tablist of tabs with a roving
 * tabindex, ← → Home End to move, each tab controlling its tabpanel. Written here rather than
 * taken from Radix because /auth must stay within the first-load budget (Radix Tabs with its
 * roving-focus and presence machinery is 9 KB gzip; this is under 1 KB). The API and the
 * `data-state` attributes match the Radix component it replaces.
 */

type TabsContextValue = {
  value: string;
  select: (value: string) => void;
  idFor: (part: "tab" | "panel", value: string) => string;
};
const TabsContext = createContext<TabsContextValue | null>(null);

function useTabs() {
  const context = useContext(TabsContext);
  if (!context) throw new Error("Tabs parts must be rendered inside <Tabs>");
  return context;
}

export function Tabs({
  value: controlled,
  defaultValue = "",
  onValueChange,
  className,
  children,
}: {
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  className?: string;
  children: React.ReactNode;
}) {
  const [uncontrolled, setUncontrolled] = useState(defaultValue);
  const value = controlled ?? uncontrolled;
  const baseId = useId();
  const context: TabsContextValue = {
    value,
    select(next) {
      if (next === value) return;
      if (controlled === undefined) setUncontrolled(next);
      onValueChange?.(next);
    },
    idFor: (part, tab) => `${baseId}-${part}-${tab}`,
  };
  return (
    <TabsContext.Provider value={context}>
      <div data-slot="tabs" className={className}>
        {children}
      </div>
    </TabsContext.Provider>
  );
}

const KEY_MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_index, count) => count - 1,
};

export function TabsList({ className, onKeyDown, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      data-slot="tabs-list"
      className={cn(
        "inline-flex h-10 items-center rounded-lg bg-muted p-1 text-muted-foreground",
        className,
      )}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        const move = KEY_MOVES[event.key];
        if (!move || event.defaultPrevented) return;
        const tabs = [...event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')];
        const index = tabs.indexOf(document.activeElement as HTMLElement);
        if (index < 0) return;
        event.preventDefault();
        const next = tabs[move(index, tabs.length)];
        next.focus();
        next.click(); // automatic activation, as in Radix
      }}
      {...props}
    />
  );
}

export function TabsTrigger({
  value,
  asChild = false,
  className,
  onClick,
  ...props
}: React.ComponentProps<"button"> & { value: string; asChild?: boolean }) {
  const tabs = useTabs();
  const active = tabs.value === value;
  const Comp = asChild ? Slot.Root : "button";
  return (
    <Comp
      role="tab"
      type={asChild ? undefined : "button"}
      id={tabs.idFor("tab", value)}
      aria-selected={active}
      aria-controls={active ? tabs.idFor("panel", value) : undefined}
      tabIndex={active ? 0 : -1}
      data-state={active ? "active" : "inactive"}
      data-slot="tabs-trigger"
      className={cn(
        "inline-flex flex-1 items-center justify-center rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap text-slate-700 data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm",
        className,
      )}
      onClick={(event: React.MouseEvent<HTMLButtonElement>) => {
        onClick?.(event);
        if (!event.defaultPrevented) tabs.select(value);
      }}
      {...props}
    />
  );
}

export function TabsContent({
  value,
  forceMount = false,
  className,
  ...props
}: React.ComponentProps<"div"> & { value: string; forceMount?: boolean }) {
  const tabs = useTabs();
  const active = tabs.value === value;
  if (!active && !forceMount) return null;
  return (
    <div
      role="tabpanel"
      id={tabs.idFor("panel", value)}
      aria-labelledby={tabs.idFor("tab", value)}
      data-state={active ? "active" : "inactive"}
      data-slot="tabs-content"
      className={cn("mt-4", className)}
      {...props}
    />
  );
}
