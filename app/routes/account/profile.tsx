import { parseWithZod } from "@conform-to/zod/v4";
import QRCode from "qrcode";
import { data } from "react-router";
import { useAuthToast } from "~/components/auth-shared";
import { ProfileAccountStatus } from "~/components/profile-account-status";
import { DeleteAccountSchema, ProfileDangerZone } from "~/components/profile-danger-zone";
import { ProfileInfoForm, ProfileInfoSchema } from "~/components/profile-info-form";
import { ProfileMembership } from "~/components/profile-membership";
import { ProfileOrders } from "~/components/profile-orders";
import { ChangePasswordSchema, ProfilePasswordForm } from "~/components/profile-password-form";
import { ProfileRegistrations } from "~/components/profile-registrations";
import type { ProfileActionData, ProfileUser } from "~/components/profile-shared";
import { ProfileSubmissions } from "~/components/profile-submissions";
import {
  ConfirmTwoFactorSchema,
  DisableTwoFactorSchema,
  EnableTwoFactorSchema,
  ProfileTwoFactor,
  RegenerateCodesSchema,
} from "~/components/profile-two-factor";
import { recordAudit } from "~/lib/audit.server";
import {
  adminCount,
  appendSetCookies,
  authErrorCode,
  authErrorMessage,
  authErrorStatus,
  getAuth,
  LAST_ADMIN_DELETE_MESSAGE,
  normaliseEmail,
  type SessionUser,
} from "~/lib/auth.server";
import { env } from "~/lib/env.server";
import { formatDate } from "~/lib/format";
import { sendMail } from "~/lib/mail.server";
import { renderMail } from "~/lib/mail-layout.server";
import { formatMinor } from "~/lib/money";
import { requireUser, twoFactorRequiredFor } from "~/lib/permissions.server";
import { pageMeta } from "~/lib/seo";
import { redirectWithToast } from "~/lib/toast.server";
import { getProfileMembership } from "~/models/membership/queries.server";
import { listOrdersForBuyer } from "~/models/orders/queries.server";
import { loadProfileRegistrations } from "~/models/registrations/queries.server";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({
    title: "Profile Settings",
    description: "Your Kongamano profile, password, two-factor authentication and account.",
    origin: loaderData?.origin ?? "",
    path: "/profile",
    noindex: true,
  });

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const profile: ProfileUser = {
    name: user.name,
    email: user.email,
    role: user.role,
    emailVerified: user.emailVerified,
    twoFactorEnabled: user.twoFactorEnabled,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
  const orders = (await listOrdersForBuyer(user.id)).map((order) => ({
    id: order.id,
    invoiceNumber: order.invoiceNumber,
    description: order.description,
    state: order.state,
    total: formatMinor(order.totalMinor, order.currency),
    due:
      order.state === "awaiting_payment" && order.paidMinor < order.totalMinor
        ? formatMinor(order.totalMinor - order.paidMinor, order.currency)
        : null,
    dateLabel: formatDate(order.createdAt),
  }));
  return data(
    {
      origin: env().BASE_URL,
      user: profile,
      orders,
      myEvents: await loadProfileRegistrations(user.id),
      membership: await getProfileMembership(user.id),
      twoFactorRequired: twoFactorRequiredFor(user.role),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

type Reply = ReturnType<typeof data<ProfileActionData>>;

export async function action({ request }: Route.ActionArgs): Promise<Reply | Response> {
  const user = await requireUser(request);
  const formData = await request.formData();
  switch (formData.get("intent")) {
    case "update-profile":
      return updateProfile(request, user, formData);
    case "change-password":
      return changePassword(request, user, formData);
    case "enable-2fa":
      return enableTwoFactor(request, formData);
    case "confirm-2fa":
      return confirmTwoFactor(request, user, formData);
    case "disable-2fa":
      return disableTwoFactor(request, user, formData);
    case "regenerate-codes":
      return regenerateCodes(request, user, formData);
    case "delete-account":
      return deleteAccount(request, user, formData);
    default:
      return data<ProfileActionData>({ intent: "unknown" }, { status: 400 });
  }
}

/** A failed better-auth call as a form answer: the message on `field` (or the form) and a toast. */
function failure(
  intent: string,
  submission: { reply: (options?: object) => ProfileActionData["result"] },
  error: unknown,
  toastTitle: string,
  field?: string,
  hideFields: string[] = [],
) {
  const message = authErrorMessage(error);
  const result = submission.reply({
    ...(field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }),
    hideFields,
  });
  return data<ProfileActionData>(
    { intent, result, toast: { type: "error", title: toastTitle, description: message } },
    { status: authErrorStatus(error) >= 500 ? 500 : 400 },
  );
}

async function updateProfile(request: Request, user: SessionUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: ProfileInfoSchema });
  if (submission.status !== "success") {
    return data<ProfileActionData>(
      { intent: "update-profile", result: submission.reply() },
      { status: 400 },
    );
  }
  const { fullName } = submission.value;
  const newEmail = normaliseEmail(submission.value.email);
  const headers = new Headers();
  try {
    if (fullName !== user.name) {
      const updated = await getAuth().api.updateUser({
        body: { name: fullName },
        headers: request.headers,
        returnHeaders: true,
      });
      appendSetCookies(headers, updated.headers);
    }
    let emailChangePendingFor: string | undefined;
    if (newEmail !== user.email) {
      // The new address must prove itself: the change happens when its link is opened.
      await getAuth().api.changeEmail({
        body: { newEmail, callbackURL: "/profile" },
        headers: request.headers,
      });
      emailChangePendingFor = newEmail;
      await notifyOldAddress(user, newEmail);
    }
    await recordAudit(request, {
      action: "user.profile_update",
      actorId: user.id,
      entity: "user",
      entityId: user.id,
      details: {
        nameChanged: fullName !== user.name,
        emailChangeRequested: Boolean(emailChangePendingFor),
      },
    });
    return data<ProfileActionData>(
      {
        intent: "update-profile",
        result: submission.reply(),
        emailChangePendingFor,
        toast: {
          type: "success",
          title: "Profile updated",
          description: emailChangePendingFor
            ? `We sent a verification link to ${emailChangePendingFor}. Your email address changes once you open it.`
            : undefined,
        },
      },
      { headers },
    );
  } catch {
    return data<ProfileActionData>(
      {
        intent: "update-profile",
        result: submission.reply({
          formErrors: ["Failed to update profile. Please try again."],
        }),
        toast: { type: "error", title: "Failed to update profile. Please try again." },
      },
      { status: 500, headers },
    );
  }
}

/** The current address hears about a requested change (it might not be its owner asking). */
async function notifyOldAddress(user: SessionUser, newEmail: string) {
  try {
    await sendMail({
      to: user.email,
      ...renderMail({
        subject: "Your Kongamano email address is being changed",
        greeting: `Hello ${user.name},`,
        blocks: [
          {
            kind: "paragraph",
            text: `Someone signed in to your Kongamano account asked to change its email address to ${newEmail}.`,
          },
          {
            kind: "paragraph",
            text: "Nothing changes until the new address is verified. If this was not you, change your password now.",
          },
          {
            kind: "button",
            label: "Change your password",
            url: `${env().BASE_URL}/profile`,
          },
        ],
      }),
    });
  } catch {
    // The change itself is safe without this notice; the mail layer logs failures.
  }
}

async function changePassword(request: Request, user: SessionUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: ChangePasswordSchema });
  const hideFields = ["currentPassword", "newPassword", "confirmPassword"];
  if (submission.status !== "success") {
    return data<ProfileActionData>(
      { intent: "change-password", result: submission.reply({ hideFields }) },
      { status: 400 },
    );
  }
  try {
    const { headers } = await getAuth().api.changePassword({
      body: {
        currentPassword: submission.value.currentPassword,
        newPassword: submission.value.newPassword,
        revokeOtherSessions: true,
      },
      headers: request.headers,
      returnHeaders: true,
    });
    await recordAudit(request, {
      action: "auth.password_change",
      actorId: user.id,
      entity: "user",
      entityId: user.id,
    });
    return data<ProfileActionData>(
      {
        intent: "change-password",
        result: submission.reply({ resetForm: true }),
        toast: {
          type: "success",
          title: "Password updated",
          description: "You were signed out on your other devices.",
        },
      },
      { headers: appendSetCookies(new Headers(), headers) },
    );
  } catch (error) {
    const code = authErrorCode(error);
    const field =
      code === "INVALID_PASSWORD"
        ? "currentPassword"
        : code === "PASSWORD_TOO_SHORT" ||
            code === "PASSWORD_TOO_LONG" ||
            code === "PASSWORD_TOO_COMMON"
          ? "newPassword"
          : undefined;
    return failure(
      "change-password",
      submission,
      error,
      "Failed to update password",
      field,
      hideFields,
    );
  }
}

async function setupData(uri: string) {
  const secret = new URL(uri).searchParams.get("secret") ?? "";
  const qrDataUrl = await QRCode.toDataURL(uri, { margin: 1, width: 200 });
  return { qrDataUrl, secret, uri };
}

async function enableTwoFactor(request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: EnableTwoFactorSchema });
  if (submission.status !== "success") {
    return data<ProfileActionData>(
      { intent: "enable-2fa", result: submission.reply({ hideFields: ["password"] }) },
      { status: 400 },
    );
  }
  try {
    const result = await getAuth().api.enableTwoFactor({
      body: { password: submission.value.password },
      headers: request.headers,
    });
    if (result.method !== "totp") throw new Error("unexpected two-factor method");
    // Recovery codes are shown after the first code proves the app works (confirm step).
    return data<ProfileActionData>({
      intent: "enable-2fa",
      result: submission.reply({ resetForm: true }),
      twoFactorSetup: await setupData(result.totpURI),
    });
  } catch (error) {
    return failure("enable-2fa", submission, error, "Two-factor set-up failed", "password", [
      "password",
    ]);
  }
}

async function confirmTwoFactor(request: Request, user: SessionUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: ConfirmTwoFactorSchema });
  // The URI only redraws the QR code after a typo; the secret that counts is on the server.
  const uri = formData.get("totpURI");
  const setup =
    typeof uri === "string" && uri.startsWith("otpauth://totp/") ? await setupData(uri) : undefined;
  if (submission.status !== "success") {
    return data<ProfileActionData>(
      { intent: "confirm-2fa", result: submission.reply(), twoFactorSetup: setup },
      { status: 400 },
    );
  }
  try {
    const { headers } = await getAuth().api.verifyTOTP({
      body: { code: submission.value.code },
      headers: request.headers,
      returnHeaders: true,
    });
    const { backupCodes } = await getAuth().api.viewBackupCodes({ body: { userId: user.id } });
    await recordAudit(request, {
      action: "auth.two_factor_enabled",
      actorId: user.id,
      entity: "user",
      entityId: user.id,
    });
    return data<ProfileActionData>(
      {
        intent: "confirm-2fa",
        result: submission.reply({ resetForm: true }),
        recoveryCodes: backupCodes,
        toast: {
          type: "success",
          title: "Two-factor authentication is on",
          description: "Save your recovery codes now: they are shown only once.",
        },
      },
      { headers: appendSetCookies(new Headers(), headers) },
    );
  } catch (error) {
    const failed = failure("confirm-2fa", submission, error, "Two-factor set-up failed", "code", [
      "code",
    ]);
    return data<ProfileActionData>(
      { ...failed.data, twoFactorSetup: setup },
      { status: failed.init?.status },
    );
  }
}

async function disableTwoFactor(request: Request, user: SessionUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: DisableTwoFactorSchema });
  if (submission.status !== "success") {
    return data<ProfileActionData>(
      { intent: "disable-2fa", result: submission.reply({ hideFields: ["password"] }) },
      { status: 400 },
    );
  }
  try {
    const { headers } = await getAuth().api.disableTwoFactor({
      body: { password: submission.value.password },
      headers: request.headers,
      returnHeaders: true,
    });
    await recordAudit(request, {
      action: "auth.two_factor_disabled",
      actorId: user.id,
      entity: "user",
      entityId: user.id,
    });
    return data<ProfileActionData>(
      {
        intent: "disable-2fa",
        result: submission.reply({ resetForm: true }),
        toast: { type: "success", title: "Two-factor authentication is off" },
      },
      { headers: appendSetCookies(new Headers(), headers) },
    );
  } catch (error) {
    return failure(
      "disable-2fa",
      submission,
      error,
      "Could not turn off two-factor authentication",
      "password",
      ["password"],
    );
  }
}

async function regenerateCodes(request: Request, user: SessionUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: RegenerateCodesSchema });
  if (submission.status !== "success") {
    return data<ProfileActionData>(
      { intent: "regenerate-codes", result: submission.reply({ hideFields: ["password"] }) },
      { status: 400 },
    );
  }
  try {
    const { backupCodes } = await getAuth().api.generateBackupCodes({
      body: { password: submission.value.password },
      headers: request.headers,
    });
    await recordAudit(request, {
      action: "auth.recovery_codes_regenerated",
      actorId: user.id,
      entity: "user",
      entityId: user.id,
    });
    return data<ProfileActionData>({
      intent: "regenerate-codes",
      result: submission.reply({ resetForm: true }),
      recoveryCodes: backupCodes,
      toast: { type: "success", title: "New recovery codes generated" },
    });
  } catch (error) {
    return failure(
      "regenerate-codes",
      submission,
      error,
      "Could not generate new codes",
      "password",
      ["password"],
    );
  }
}

async function deleteAccount(request: Request, user: SessionUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: DeleteAccountSchema });
  if (submission.status !== "success") {
    return data<ProfileActionData>(
      { intent: "delete-account", result: submission.reply({ hideFields: ["password"] }) },
      { status: 400 },
    );
  }
  if (user.role === "admin" && (await adminCount()) <= 1) {
    return data<ProfileActionData>(
      {
        intent: "delete-account",
        result: submission.reply({
          formErrors: [LAST_ADMIN_DELETE_MESSAGE],
          hideFields: ["password"],
        }),
        toast: {
          type: "error",
          title: "Failed to initiate account deletion.",
          description: LAST_ADMIN_DELETE_MESSAGE,
        },
      },
      { status: 409 },
    );
  }
  try {
    const { headers } = await getAuth().api.deleteUser({
      body: { password: submission.value.password },
      headers: request.headers,
      returnHeaders: true,
    });
    // The account and its personal data are gone; the event stays, without who it was.
    await recordAudit(request, {
      action: "auth.account_deleted",
      entity: "user",
      entityId: user.id,
    });
    return redirectWithToast(
      "/",
      {
        type: "success",
        title: "Account deleted",
        description: "Your account has been deleted.",
      },
      { headers: appendSetCookies(new Headers(), headers) },
    );
  } catch (error) {
    return failure(
      "delete-account",
      submission,
      error,
      "Failed to initiate account deletion.",
      "password",
      ["password"],
    );
  }
}

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const { user, twoFactorRequired, orders, membership } = loaderData;
  const profileAction = actionData as ProfileActionData | undefined;
  useAuthToast(profileAction);
  return (
    <main id="main" className="mx-auto grid w-full max-w-5xl gap-6 px-4 py-10">
      <div className="grid gap-1">
        <h1 className="text-3xl font-semibold">Profile Settings</h1>
        <p className="text-muted-foreground">
          Manage your account information, password and security.
        </p>
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="grid gap-6 lg:col-span-2">
          <ProfileMembership data={membership} />
          <ProfileInfoForm user={user} actionData={profileAction} />
          <ProfilePasswordForm actionData={profileAction} />
          <ProfileTwoFactor user={user} actionData={profileAction} required={twoFactorRequired} />
          <ProfileRegistrations myEvents={loaderData.myEvents} />
          <ProfileOrders orders={orders} />
          <ProfileSubmissions />
        </div>
        <div className="grid content-start gap-6">
          <ProfileAccountStatus user={user} />
          <ProfileDangerZone actionData={profileAction} />
        </div>
      </div>
    </main>
  );
}
