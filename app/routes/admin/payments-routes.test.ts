import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { count, eq, inArray } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  useActionData,
  useLoaderData,
} from "react-router";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { jobs, orders, payments, user } from "~/db/schema";
import { CLIENT_IP_HEADER } from "~/lib/auth.server";
import { env } from "~/lib/env.server";
import { securityRecommendations } from "~/models/admin/security.server";
import { retryFailedJob } from "~/models/jobs.server";
import { ORDER_JOBS } from "~/models/orders/job-kinds";
import { createOrder, type NewOrderLine } from "~/models/orders/orders.server";
import { MAX_PROOF_BYTES, PROOF_FOLDER } from "~/models/orders/payment-proof.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { type RouteRole, signInEachRole } from "../../../tests/helpers/session";
import { loader as proofLoader } from "./payment-proof";
import Payments, { action as paymentsAction, loader as paymentsLoader } from "./payments";

/** The route module's component with its loader and action data, as framework mode passes them. */
function PaymentsPage() {
  const loaderData = useLoaderData() as Parameters<typeof Payments>[0]["loaderData"];
  const actionData = useActionData() as Parameters<typeof Payments>[0]["actionData"];
  // biome-ignore lint/suspicious/noExplicitAny: the component reads loaderData and actionData only
  return createElement(Payments, { loaderData, actionData } as any);
}

const HOUR = 3_600_000;
const ORIGIN = "http://localhost:3000";
type Who = RouteRole;

// The Payments screen and the proof download as the server runs them: real sessions, role checks,
// multipart bodies as a browser sends them (with Content-Length), the database and file storage.
describe("payments screen and payment proofs", () => {
  const database = useTestDatabase();
  let cookies: Record<Who, string>;
  let buyer: { id: string; name: string; email: string };
  let reference = 0;

  function headers(who: Who, extra: Record<string, string> = {}) {
    return {
      cookie: cookies[who],
      origin: ORIGIN,
      [CLIENT_IP_HEADER]: "198.51.100.210",
      ...extra,
    };
  }

  /** The multipart body a browser sends for the Payments form: bytes, boundary, Content-Length. */
  async function post(who: Who, fields: Record<string, string>, proof?: File) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    // An empty file input is still sent, as a browser does.
    form.set("proof", proof ?? new File([], "", { type: "application/octet-stream" }));
    const encoded = new Response(form);
    const body = new Uint8Array(await encoded.arrayBuffer());
    return new Request(`${ORIGIN}/admin/payments`, {
      method: "POST",
      headers: headers(who, {
        "content-type": encoded.headers.get("content-type") ?? "",
        "content-length": String(body.byteLength),
      }),
      body,
    });
  }

  const get = (url: string, who: Who) => new Request(`${ORIGIN}${url}`, { headers: headers(who) });

  type Outcome = { status: number; response?: Response; body?: unknown };
  async function answer(run: () => Promise<unknown>): Promise<Outcome> {
    try {
      const result = await run();
      if (result instanceof Response) return { status: result.status, response: result };
      // data(value, init) from the action: a DataWithResponseInit with its status in `init`.
      const wrapped = result as { type?: string; data?: unknown; init?: ResponseInit | null };
      if (wrapped?.type === "DataWithResponseInit") {
        return { status: wrapped.init?.status ?? 200, body: wrapped.data };
      }
      return { status: 200, body: result };
    } catch (thrown) {
      if (thrown instanceof Response) return { status: thrown.status, response: thrown };
      throw thrown;
    }
  }

  // The route args beyond request and params are unused.
  const args = (request: Request, params: Record<string, string> = {}) =>
    ({ request, params, context: {} }) as never;

  const record = (who: Who, fields: Record<string, string>, proof?: File) =>
    answer(async () => paymentsAction(args(await post(who, fields, proof))));
  const proofOf = (paymentId: string, who: Who) =>
    answer(() => proofLoader(args(get(`/admin/payments/${paymentId}/proof`, who), { paymentId })));

  const nextReference = () => `QPR${String(++reference).padStart(7, "0")}`;
  const fieldsFor = (invoiceNumber: string, overrides: Record<string, string> = {}) => ({
    intent: "record",
    invoiceNumber,
    method: "mpesa",
    reference: nextReference(),
    amount: "1000",
    currency: "KES",
    paidOn: "2026-05-04",
    ...overrides,
  });

  const ticketLine = (): NewOrderLine => ({
    kind: "event_ticket",
    referenceId: crypto.randomUUID(),
    description: "Records Management Forum — Full Pass",
    quantity: 1,
    unitAmountMinor: 10_000_00,
  });
  const membershipLine = (): NewOrderLine => ({
    kind: "membership_term",
    referenceId: "professional",
    description: "Professional membership, 1 year",
    quantity: 1,
    unitAmountMinor: 10_000_00,
  });
  const newOrder = (line: NewOrderLine = ticketLine(), holdMs = 72 * HOUR) =>
    createOrder({ buyer, currency: "KES", holdMs, lines: [line] });

  async function paymentByReference(ref: string) {
    const [row] = await database.db.select().from(payments).where(eq(payments.reference, ref));
    return row;
  }

  async function storedProofs() {
    try {
      return (await readdir(path.join(env().DATA_DIR, "uploads", PROOF_FOLDER))).sort();
    } catch {
      return [];
    }
  }

  async function paymentCount() {
    const [row] = await database.db.select({ n: count() }).from(payments);
    return row.n;
  }

  const pdfProof = (bytes = Buffer.from("%PDF-1.4\n% M-Pesa statement\n%%EOF\n")) =>
    new File([bytes], "statement.pdf", { type: "application/pdf" });

  /** Server-renders the Payments page (loader + component) as `who` sees it. */
  async function renderPage(who: Who) {
    const handler = createStaticHandler([
      {
        id: "payments",
        path: "/admin/payments",
        loader: paymentsLoader as never,
        Component: PaymentsPage,
      },
    ]);
    const context = await handler.query(get("/admin/payments", who));
    if (context instanceof Response) throw new Error(`unexpected ${context.status}`);
    const router = createStaticRouter(handler.dataRoutes, context);
    const html = renderToString(
      createElement(StaticRouterProvider, { router, context, hydrate: false }),
    );
    // React separates adjacent text nodes with comments; read the text as a browser shows it.
    return html.replace(/<!-- -->/g, "");
  }

  beforeAll(async () => {
    cookies = await signInEachRole();
    const buyerId = crypto.randomUUID();
    buyer = { id: buyerId, name: "Wanjiru Buyer", email: "wanjiru.buyer@example.test" };
    await database.db.insert(user).values({ ...buyer, role: "user" });
  });

  it("records a payment with its PDF proof and serves the proof privately to staff who may see it", async () => {
    const { order, invoiceNumber } = await newOrder();
    const bytes = Buffer.from("%PDF-1.7\n% M-Pesa statement for QPR proof\n%%EOF\n");
    const fields = fieldsFor(invoiceNumber, { amount: "10000" });
    const recorded = await record("editor", fields, pdfProof(bytes));
    expect(recorded.status).toBe(302);
    expect(recorded.response?.headers.get("location")).toBe("/admin/payments");

    const payment = await paymentByReference(fields.reference);
    expect(payment).toMatchObject({ orderId: order.id, amountMinor: 10_000_00, currency: "KES" });
    expect(payment.proofKey).toMatch(new RegExp(`^${PROOF_FOLDER}/[A-Za-z0-9_-]+\\.pdf$`));
    const stored = await readFile(path.join(env().DATA_DIR, "uploads", payment.proofKey ?? ""));
    expect(stored.equals(bytes)).toBe(true);
    const [paid] = await database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(paid.state).toBe("paid");

    for (const who of ["admin", "editor"] as const) {
      const served = await proofOf(payment.id, who);
      expect(served.status, who).toBe(200);
      const response = served.response as Response;
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-disposition")).toBe("attachment");
      expect(response.headers.get("content-length")).toBe(String(bytes.byteLength));
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    }

    // A plain user is sent away with "Access Denied", a visitor to the home page: no bytes.
    for (const who of ["user", "anonymous"] as const) {
      const refused = await proofOf(payment.id, who);
      expect(refused.status, who).toBe(302);
      expect(refused.response?.headers.get("location"), who).toBe("/");
      expect(refused.response?.headers.get("content-type") ?? "", who).not.toContain("pdf");
    }

    // The loader flags the payment as having a proof (the link on the screen).
    const page = await paymentsLoader(args(get("/admin/payments", "editor")));
    expect(page.recent.find((p) => p.id === payment.id)).toMatchObject({
      hasProof: true,
      invoiceNumber,
    });
  });

  it("stores an image proof re-encoded as WebP and serves it as image/webp", async () => {
    const { invoiceNumber } = await newOrder();
    const png = await sharp({
      create: { width: 60, height: 120, channels: 3, background: "#0a7d32" },
    })
      .png()
      .toBuffer();
    const fields = fieldsFor(invoiceNumber);
    const recorded = await record(
      "admin",
      fields,
      new File([png], "mpesa-sms.png", { type: "image/png" }),
    );
    expect(recorded.status).toBe(302);
    const payment = await paymentByReference(fields.reference);
    expect(payment.proofKey).toMatch(new RegExp(`^${PROOF_FOLDER}/.+\\.webp$`));
    const served = await proofOf(payment.id, "admin");
    expect(served.status).toBe(200);
    const response = served.response as Response;
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.subarray(0, 4).toString("latin1")).toBe("RIFF");
    expect(body.subarray(8, 12).toString("latin1")).toBe("WEBP");
    expect((await sharp(body).metadata()).width).toBe(60);
  });

  it("shows a proof only to staff who may see its payment, and 404 for an unknown payment", async () => {
    // A membership order is not an event order: an editor may not see its payment.
    const membership = await newOrder(membershipLine());
    const membershipFields = fieldsFor(membership.invoiceNumber, { amount: "10000" });
    expect((await record("admin", membershipFields, pdfProof())).status).toBe(302);
    const membershipPayment = await paymentByReference(membershipFields.reference);
    expect(membershipPayment.orderId).toBe(membership.order.id);
    expect((await proofOf(membershipPayment.id, "admin")).status).toBe(200);
    expect((await proofOf(membershipPayment.id, "editor")).status).toBe(404);

    // A payment that matches no invoice is the admins' to reconcile.
    const unmatchedFields = fieldsFor("INV-1999-000001");
    expect((await record("admin", unmatchedFields, pdfProof())).status).toBe(302);
    const unmatched = await paymentByReference(unmatchedFields.reference);
    expect(unmatched.orderId).toBeNull();
    expect((await proofOf(unmatched.id, "admin")).status).toBe(200);
    expect((await proofOf(unmatched.id, "editor")).status).toBe(404);

    // Unknown, malformed, or a payment recorded without a proof: 404 for everyone on staff.
    const { invoiceNumber } = await newOrder();
    const withoutProof = fieldsFor(invoiceNumber);
    expect((await record("admin", withoutProof)).status).toBe(302);
    const bare = await paymentByReference(withoutProof.reference);
    expect(bare.proofKey).toBeNull();
    for (const id of [crypto.randomUUID(), "not-a-payment", bare.id]) {
      for (const who of ["admin", "editor"] as const) {
        expect((await proofOf(id, who)).status, `${who} ${id}`).toBe(404);
      }
    }
  });

  it("refuses a too-large or wrong-type proof with 400 and the form's message, recording nothing", async () => {
    const { order, invoiceNumber } = await newOrder();
    const before = { payments: await paymentCount(), proofs: await storedProofs() };

    type Reply = { result: { error?: Record<string, string[]> } | null; error: string | null };
    const refusals: Array<[string, File, (reply: Reply) => void]> = [
      [
        // Far over the limit: the Content-Length alone refuses it, before the body is read.
        "6 MB PDF",
        pdfProof(Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(6 * 1024 * 1024, 32)])),
        (reply) => {
          expect(reply.error).toBe("The proof file must be at most 5 MB.");
          expect(reply.result).toBeNull();
        },
      ],
      [
        // One byte over: the body fits the envelope allowance, the file itself does not.
        "5 MB + 1 byte PDF",
        pdfProof(Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(MAX_PROOF_BYTES - 8, 32)])),
        (reply) => {
          expect(reply.error).toBeNull();
          expect(reply.result?.error?.[""]).toEqual(["The proof file must be at most 5 MB."]);
        },
      ],
      [
        "text file named .pdf",
        new File(["just some text, not a statement"], "statement.pdf", {
          type: "application/pdf",
        }),
        (reply) => {
          expect(reply.result?.error?.[""]).toEqual([
            "The proof must be a PDF, JPEG, PNG or WebP file.",
          ]);
        },
      ],
      [
        "GIF image",
        new File([Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1")], "sms.gif", {
          type: "image/gif",
        }),
        (reply) => {
          expect(reply.result?.error?.[""]).toEqual([
            "The proof must be a PDF, JPEG, PNG or WebP file.",
          ]);
        },
      ],
    ];
    for (const [label, file, check] of refusals) {
      const fields = fieldsFor(invoiceNumber, { amount: "10000" });
      const refused = await record("admin", fields, file);
      expect(refused.status, label).toBe(400);
      check(refused.body as Reply);
      expect(await paymentByReference(fields.reference), label).toBeUndefined();
    }
    expect(await paymentCount()).toBe(before.payments);
    expect(await storedProofs()).toEqual(before.proofs);
    const [unchanged] = await database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(unchanged).toMatchObject({ state: "awaiting_payment", paidMinor: 0 });
  });

  it("keeps no proof file when the payment is refused or was recorded before", async () => {
    const { invoiceNumber } = await newOrder();
    const first = fieldsFor(invoiceNumber, { amount: "400" });
    expect((await record("admin", first, pdfProof())).status).toBe(302);
    const kept = await storedProofs();

    // The same M-Pesa code entered again: nothing changes, and its second proof is not kept.
    expect((await record("admin", { ...first }, pdfProof())).status).toBe(302);
    expect(await storedProofs()).toEqual(kept);
    // Refused by the order's rules (wrong currency; an editor on a membership invoice).
    const wrongCurrency = fieldsFor(invoiceNumber, { currency: "USD" });
    expect((await record("admin", wrongCurrency, pdfProof())).status).toBe(400);
    const membership = await newOrder(membershipLine());
    const editorOnMembership = fieldsFor(membership.invoiceNumber);
    expect((await record("editor", editorOnMembership, pdfProof())).status).toBe(403);
    expect(await storedProofs()).toEqual(kept);

    // A body that is not the multipart it claims to be: a plain message, not a file-size one.
    const broken = await answer(() =>
      paymentsAction(
        args(
          new Request(`${ORIGIN}/admin/payments`, {
            method: "POST",
            headers: headers("admin", { "content-type": "multipart/form-data; boundary=x" }),
            body: "not multipart at all",
          }),
        ),
      ),
    );
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ error: "The form could not be read. Please try again." });
  });

  it("refuses recording by a plain user (403) and a visitor (401)", async () => {
    const { invoiceNumber } = await newOrder();
    const before = await paymentCount();
    for (const [who, status] of [
      ["user", 403],
      ["anonymous", 401],
    ] as const) {
      const refused = await record(who, fieldsFor(invoiceNumber), pdfProof());
      expect(refused.status, who).toBe(status);
    }
    expect(await paymentCount()).toBe(before);
  });

  it("flags orders past their hold as overdue in the reconciliation list and its heading", async () => {
    // Close every order earlier tests left awaiting payment: the heading counts them all.
    await database.db
      .update(orders)
      .set({ state: "cancelled", closedAt: new Date() })
      .where(eq(orders.state, "awaiting_payment"));
    const now = Date.now();
    const late = await newOrder();
    const onTime = await newOrder();
    const justInTime = await newOrder();
    // The hold's end is the order's due date: move it instead of waiting for it.
    await database.db
      .update(orders)
      .set({ expiresAt: new Date(now - 5 * 60_000) })
      .where(eq(orders.id, late.order.id));
    await database.db
      .update(orders)
      .set({ expiresAt: new Date(now + 5 * 60_000) })
      .where(eq(orders.id, justInTime.order.id));

    const before = await renderPage("admin");
    expect(before).toContain("Awaiting payment (3, 1 overdue)");

    for (const who of ["admin", "editor"] as const) {
      const page = await paymentsLoader(args(get("/admin/payments", who)));
      const byInvoice = new Map(page.awaiting.map((o) => [o.invoiceNumber, o]));
      expect(byInvoice.get(late.invoiceNumber)?.overdue, who).toBe(true);
      expect(byInvoice.get(onTime.invoiceNumber)?.overdue, who).toBe(false);
      expect(byInvoice.get(justInTime.invoiceNumber)?.overdue, who).toBe(false);
      expect(page.awaiting.map((o) => o.invoiceNumber)[0], who).toBe(late.invoiceNumber);
      expect(byInvoice.get(late.invoiceNumber)).toMatchObject({
        total: "KES 10,000.00",
        due: "KES 10,000.00",
        partPaid: false,
      });
    }
    expect((before.match(/>Overdue</g) ?? []).length).toBe(1);

    // Paying the overdue order takes it off the list; nothing is overdue any more.
    const paid = await record("admin", fieldsFor(late.invoiceNumber, { amount: "10000" }));
    expect(paid.status).toBe(302);
    const after = await renderPage("editor");
    expect(after).toContain("Awaiting payment (2)");
    expect(after).not.toContain("overdue");
    const page = await paymentsLoader(args(get("/admin/payments", "admin")));
    expect(page.awaiting.map((o) => o.invoiceNumber)).not.toContain(late.invoiceNumber);
  });

  it("lists a failed receipt mail in the Security Center recommendations until it is retried", async () => {
    const { invoiceNumber } = await newOrder();
    const fields = fieldsFor(invoiceNumber, { amount: "10000" });
    expect((await record("admin", fields)).status).toBe(302);
    const payment = await paymentByReference(fields.reference);
    const ids = async () => (await securityRecommendations()).map((r) => r.id);

    // Jobs are queued (invoice, receipt, expiry…) but none failed: no recommendation.
    const [failedBefore] = await database.db
      .select({ n: count() })
      .from(jobs)
      .where(eq(jobs.state, "failed"));
    expect(failedBefore.n).toBe(0);
    expect(await ids()).not.toContain("failed-jobs");

    // The receipt mail kept failing: the worker gave up on it after its last attempt.
    const [job] = await database.db
      .update(jobs)
      .set({
        state: "failed",
        attempts: 5,
        maxAttempts: 5,
        lastError: "connect ECONNREFUSED 127.0.0.1:2525",
        finishedAt: new Date(),
      })
      .where(inArray(jobs.uniqueKey, [`payment:${payment.id}:receipt`]))
      .returning();
    expect(job.kind).toBe(ORDER_JOBS.receiptMail);
    const recommendations = await securityRecommendations();
    expect(recommendations.find((r) => r.id === "failed-jobs")).toEqual({
      id: "failed-jobs",
      severity: "medium",
      title: "1 scheduled job failed",
      detail:
        "Mails, reminders or expiries that kept failing after every retry. See the last error and retry them.",
      href: "/admin/jobs",
    });

    // Retried: queued again, the recommendation goes away.
    const [admin] = await database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, "root@example.com")); // signInEachRole's admin
    expect(await retryFailedJob({ request: null, actorId: admin.id }, job.id)).toBe(true);
    expect(await ids()).not.toContain("failed-jobs");
  });
});
