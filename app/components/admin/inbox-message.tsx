import { useFetcher } from "react-router";
import { Mail, MailOpen, Reply } from "~/components/icons";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { CONTACT_REGIONS } from "~/lib/constants";
import { formatDate, formatTime } from "~/lib/format";
import { cn } from "~/lib/utils";
import type { InboxMessage } from "~/models/messages/messages.server";
import { ConfirmDeleteDialog } from "./confirm-delete-dialog";

/** mailto: link answering a message (subject 'Re: <subject>'). */
export function replyHref(email: string, subject: string) {
  const address = email.split("@").map(encodeURIComponent).join("@");
  return `mailto:${address}?subject=${encodeURIComponent(`Re: ${subject}`)}`;
}

function regionLabel(region: string | null) {
  return CONTACT_REGIONS.find((r) => r.value === region)?.label ?? null;
}

/**
 * One message of the inbox: a disclosure (works without JavaScript). Opening an unread message
 * marks it read; the button beside Reply toggles it back.
 */
export function InboxMessageItem({
  message,
  markReadOnOpen = true,
}: {
  message: InboxMessage;
  /** Off in the Unread view, where a message marked read would vanish while being read. */
  markReadOnOpen?: boolean;
}) {
  const fetcher = useFetcher();
  // Optimistic: show the state being submitted while the request runs.
  const pendingRead = fetcher.formData?.get("read");
  const unread = pendingRead ? pendingRead !== "true" : !message.readAt;
  const region = regionLabel(message.region);

  return (
    <li className={cn("rounded-xl border bg-card", unread ? "border-primary/40" : "border-border")}>
      <details
        onToggle={(event) => {
          if (markReadOnOpen && event.currentTarget.open && unread && fetcher.state === "idle") {
            fetcher.submit(
              { intent: "mark-read", id: message.id, read: "true" },
              { method: "post" },
            );
          }
        }}
      >
        <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 rounded-xl p-4 hover:bg-muted/50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring [&::-webkit-details-marker]:hidden">
          {unread ? (
            <Mail aria-hidden className="size-4 text-primary" />
          ) : (
            <MailOpen aria-hidden className="size-4 text-slate-500" />
          )}
          <span className={cn("min-w-0 flex-1 truncate", unread && "font-semibold")}>
            {message.subject}
          </span>
          {unread ? <Badge variant="info">Unread</Badge> : <span className="sr-only">Read</span>}
          <span className="w-full text-sm text-muted-foreground sm:w-auto">
            {message.name} ·{" "}
            <time dateTime={message.createdAt}>
              {formatDate(message.createdAt)} {formatTime(message.createdAt)}
            </time>
          </span>
        </summary>
        <div className="grid gap-4 border-t border-border p-4">
          <dl className="grid gap-1 text-sm sm:grid-cols-[6rem_1fr]">
            <dt className="text-muted-foreground">From</dt>
            <dd>
              {message.name} &lt;{message.email}&gt;
            </dd>
            {region ? (
              <>
                <dt className="text-muted-foreground">Region</dt>
                <dd>{region}</dd>
              </>
            ) : null}
          </dl>
          <p className="text-sm whitespace-pre-wrap break-words">{message.message}</p>
          <div className="flex flex-wrap gap-2">
            <a
              href={replyHref(message.email, message.subject)}
              className={buttonVariants({ size: "sm" })}
            >
              <Reply aria-hidden />
              Reply
            </a>
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="mark-read" />
              <input type="hidden" name="id" value={message.id} />
              <input type="hidden" name="read" value={unread ? "true" : "false"} />
              <Button type="submit" variant="outline" size="sm">
                {unread ? <MailOpen aria-hidden /> : <Mail aria-hidden />}
                {unread ? "Mark as read" : "Mark as unread"}
              </Button>
            </fetcher.Form>
            <ConfirmDeleteDialog
              itemName={`the message "${message.subject}"`}
              title="Delete this message?"
              fields={{ intent: "delete", id: message.id }}
            />
          </div>
        </div>
      </details>
    </li>
  );
}
