import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link, redirect, useLoaderData } from "react-router";
import { z } from "zod";
import { EmptyState } from "~/components/admin/empty-state";
import { InboxMessageItem } from "~/components/admin/inbox-message";
import { ListPagination } from "~/components/admin/list-pagination";
import { PageHeader } from "~/components/admin/page-header";
import { Inbox } from "~/components/icons";
import { logger } from "~/lib/logger.server";
import { requireRole } from "~/lib/permissions.server";
import { isDocumentRequest } from "~/lib/request.server";
import { redirectWithToast } from "~/lib/toast.server";
import { cn } from "~/lib/utils";
import {
  deleteMessage,
  listMessages,
  MESSAGES_PAGE_SIZE,
  setMessageRead,
} from "~/models/messages/messages.server";
import type { Route } from "./+types/messages";

export const meta: Route.MetaFunction = () => [
  { title: "Messages | Admin | Kongamano" },
  { name: "robots", content: "noindex" },
];

function pageNumber(value: string | null) {
  const n = Number.parseInt(value ?? "", 10);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  const url = new URL(request.url);
  const unreadOnly = url.searchParams.get("filter") === "unread";
  const inbox = await listMessages({ page: pageNumber(url.searchParams.get("page")), unreadOnly });
  return { ...inbox, pageSize: MESSAGES_PAGE_SIZE, unreadOnly };
}

const MessageActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("mark-read"),
    id: z.uuid(),
    read: z.enum(["true", "false"]).transform((v) => v === "true"),
  }),
  z.object({ intent: z.literal("delete"), id: z.uuid() }),
]);

const DELETE_FAILED = {
  title: "Error",
  description: "Failed to delete message. Please try again.",
};

export async function action({ request }: Route.ActionArgs) {
  const user = await requireRole(request, "editor");
  const submission = parseWithZod(await request.formData(), { schema: MessageActionSchema });
  if (submission.status !== "success") {
    return data({ error: { title: "Error", description: "Unknown message action." } }, 400);
  }
  const back = `/admin/messages${new URL(request.url).search}`;
  const value = submission.value;
  if (value.intent === "mark-read") {
    const found = await setMessageRead(value.id, value.read);
    if (!found) return data({ error: { title: "Error", description: "Message not found." } }, 404);
    // The toggle is a fetcher: its redirect would interrupt a delete submitted meanwhile, whose
    // toast then never showed (decision 0129). Without JavaScript the form post is redirected.
    return isDocumentRequest(request) ? redirect(back) : data({ read: value.read });
  }
  try {
    const subject = await deleteMessage(request, value.id, user.id);
    if (subject === null) return data({ error: DELETE_FAILED }, 404);
    return redirectWithToast(back, {
      type: "success",
      title: "Message deleted",
      description: `"${subject}" has been deleted.`,
    });
  } catch (error) {
    logger.error({ err: error }, "message delete failed");
    return data({ error: DELETE_FAILED }, 500);
  }
}

function FilterLink({ to, active, children }: { to: string; active: boolean; children: string }) {
  return (
    <Link
      to={to}
      aria-current={active ? "page" : undefined}
      className={cn(
        "rounded-md px-3 py-1.5 text-sm font-medium",
        active ? "bg-background text-foreground shadow-sm" : "text-slate-700 hover:text-foreground",
      )}
    >
      {children}
    </Link>
  );
}

export default function AdminMessages() {
  const { messages, total, unread, page, pageSize, unreadOnly } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader
        title="Messages"
        description={
          unread === 0
            ? "Messages sent through the contact form. All caught up."
            : `Messages sent through the contact form. ${unread} unread.`
        }
      />
      <nav aria-label="Message filter" className="mb-6">
        <div className="inline-flex gap-1 rounded-lg bg-muted p-1">
          <FilterLink to="/admin/messages" active={!unreadOnly}>
            All
          </FilterLink>
          <FilterLink to="/admin/messages?filter=unread" active={unreadOnly}>
            {`Unread (${unread})`}
          </FilterLink>
        </div>
      </nav>
      {messages.length === 0 ? (
        <EmptyState
          icon={Inbox}
          title={unreadOnly ? "No unread messages" : "No messages yet"}
          hint={
            unreadOnly
              ? "Every message has been read."
              : "Messages sent through the contact page will appear here."
          }
        />
      ) : (
        <>
          <ul aria-label="Contact messages, newest first" className="grid grid-cols-1 gap-3">
            {messages.map((message) => (
              <InboxMessageItem key={message.id} message={message} markReadOnOpen={!unreadOnly} />
            ))}
          </ul>
          <ListPagination page={page} pageSize={pageSize} total={total} />
        </>
      )}
    </>
  );
}
