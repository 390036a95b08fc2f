import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { z } from "zod";
import { requireUser } from "~/lib/permissions.server";
import { redirectWithToast } from "~/lib/toast.server";
import {
  cancelMembership,
  inviteSeat,
  MembershipError,
  reissueJoinInvoice,
  revokeSeat,
  startUpgrade,
} from "~/models/membership/membership.server";
import type { Route } from "./+types/membership-manage";

// The actions of the Membership section on /profile (each checks ownership in the model).
const ManageSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("cancel"), id: z.uuid(), confirm: z.literal("yes").optional() }),
  z.object({ intent: z.literal("reissue"), id: z.uuid() }),
  z.object({
    intent: z.literal("upgrade"),
    id: z.uuid(),
    plan: z.enum(["professional", "corporate"]),
  }),
  z.object({ intent: z.literal("invite-seat"), id: z.uuid(), email: z.string().trim() }),
  z.object({ intent: z.literal("revoke-seat"), id: z.uuid() }),
]);

export async function loader() {
  return redirect("/profile#membership");
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: ManageSchema });
  const back = "/profile#membership";
  if (submission.status !== "success") {
    return redirectWithToast(
      back,
      { type: "error", title: "Unknown membership action." },
      { status: 303 },
    );
  }
  const actor = { id: user.id, role: user.role, request };
  const value = submission.value;
  try {
    switch (value.intent) {
      case "cancel":
        // Irreversible: without the confirmation, back to the question (issue 30).
        if (value.confirm !== "yes") {
          return redirect("/profile?confirm=cancel-membership#membership", 303);
        }
        await cancelMembership(value.id, actor);
        return redirectWithToast(back, {
          type: "success",
          title: "Membership cancelled",
          description: "You keep your benefits until the end of the period you paid for.",
        });
      case "reissue": {
        const { orderId } = await reissueJoinInvoice(value.id, actor);
        return redirectWithToast(`/orders/${orderId}`, {
          type: "success",
          title: "New invoice issued",
        });
      }
      case "upgrade": {
        const { orderId, invoiceNumber } = await startUpgrade(value.id, value.plan, actor);
        return redirectWithToast(`/orders/${orderId}`, {
          type: "success",
          title: "Upgrade invoice issued",
          description: `Invoice ${invoiceNumber}: your plan changes the day it is paid.`,
        });
      }
      case "invite-seat":
        await inviteSeat(value.id, value.email, actor);
        return redirectWithToast(back, {
          type: "success",
          title: `Invitation sent to ${value.email}`,
        });
      case "revoke-seat":
        await revokeSeat(value.id, actor);
        return redirectWithToast(back, { type: "success", title: "Seat removed" });
    }
  } catch (error) {
    if (!(error instanceof MembershipError)) throw error;
    if (error.status === 404) throw new Response("Not Found", { status: 404 });
    return redirectWithToast(back, { type: "error", title: error.message }, { status: 303 });
  }
}
