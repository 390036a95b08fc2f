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
import { CONFIRM_FIELD } from "~/components/confirm-action";
import { eventFees, events, jobs, orders, payments, receipts, refunds, user } from "~/db/schema";
import { CLIENT_IP_HEADER } from "~/lib/auth.server";
import { env, setEnv } from "~/lib/env.server";
import { parseKesRates } from "~/lib/exchange-rates";
import { retryFailedJob, runDueJobs } from "~/models/jobs.server";
import { ORDER_JOBS } from "~/models/orders/job-kinds";
import {
  AMOUNT_TOO_LARGE_MESSAGE,
  createOrder,
  expireOrder,
  type NewOrderLine,
  PART_PAID_CANCEL_MESSAGE,
  recordPayment,
  recordRefund,
} from "~/models/orders/orders.server";
import { MAX_PROOF_BYTES, PROOF_FOLDER } from "~/models/orders/payment-proof.server";
import { registerForEvent } from "~/models/registrations/registrations.server";
import { securityRecommendations } from "~/models/security/security.server";
import { wireProcess } from "~/models/wiring.server";
import { useTestDatabase } from "../../../tests/helpers/db";
import { type RouteRole, signInEachRole } from "../../../tests/helpers/session";
import { action as orderAction, loader as orderLoader } from "../account/order";
import { loader as creditNoteLoader } from "../api/order-credit-note-pdf";
import { loader as invoiceLoader } from "../api/order-invoice-pdf";
import { loader as receiptLoader } from "../api/order-receipt-pdf";
import { action as registrationsAction } from "./events/registrations";
import { loader as proofLoader } from "./payment-proof";
import Payments, { action as paymentsAction, loader as paymentsLoader } from "./payments";

// The jobs and reactions this process runs, as the server registers them.
wireProcess();

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
      // data(value, { status }) thrown by a loader (e.g. the order pages' 404).
      const wrapped = thrown as { type?: string; data?: unknown; init?: ResponseInit | null };
      if (wrapped?.type === "DataWithResponseInit") {
        return { status: wrapped.init?.status ?? 500, body: wrapped.data };
      }
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
    expect(await retryFailedJob({ id: admin.id, role: "admin" }, job.id)).toBe(true);
    expect(await ids()).not.toContain("failed-jobs");
  });

  // ---------------------------------------------------------------------------------------------
  // Issue 26: credit, refunds and reinstating on the screen; editors' scope; separation of duties
  // ---------------------------------------------------------------------------------------------
  type FormReply = { result: { error?: Record<string, string[]> } | null; error: string | null };
  const formError = (outcome: Outcome) => (outcome.body as FormReply).result?.error?.[""];
  const postForm = async (who: Who, fields: Record<string, string>, url = "/admin/payments") =>
    answer(async () => {
      const request = new Request(`${ORIGIN}${url}`, {
        method: "POST",
        headers: headers(who, { "content-type": "application/x-www-form-urlencoded" }),
        body: new URLSearchParams(fields),
      });
      return paymentsAction(args(request));
    });
  async function idOf(email: string) {
    const [row] = await database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
    return row.id;
  }
  const systemAdmin = async () => ({ id: await idOf("root@example.com"), role: "admin" as const });

  it("records shillings against a USD invoice at the configured rate only, and lists what arrived", async () => {
    const before = env();
    setEnv({ ...before, KES_RATES: parseKesRates("USD=129.50") });
    try {
      const usd = await createOrder({
        buyer,
        currency: "USD",
        holdMs: 72 * HOUR,
        lines: [{ ...ticketLine(), quantity: 1, unitAmountMinor: 100_00 }],
      });
      // The form names the configured rate; a rate posted with the form is not read.
      const html = await renderPage("editor");
      expect(html).toContain("converted at the configured rate (129.50 KES/USD), rounded down");
      const fields = fieldsFor(usd.invoiceNumber, {
        amount: "9100",
        currency: "KES",
        exchangeRate: "1",
        rate: "1",
      });
      const recorded = await record("editor", fields);
      expect(recorded.status).toBe(302);
      expect(await paymentByReference(fields.reference)).toMatchObject({
        amountMinor: 70_27,
        currency: "USD",
        receivedMinor: 9_100_00,
        receivedCurrency: "KES",
        exchangeRate: "129.50",
      });
      const page = await paymentsLoader(args(get("/admin/payments", "editor")));
      expect(page.recent.find((p) => p.reference === fields.reference)).toMatchObject({
        amount: "USD 70.27",
        received: "KES 9,100.00 at 129.50 KES/USD",
      });

      // Without a rate for the invoice's currency: the reason in the form, 400, nothing recorded.
      const eur = await createOrder({
        buyer,
        currency: "EUR",
        holdMs: 72 * HOUR,
        lines: [{ ...ticketLine(), quantity: 1, unitAmountMinor: 100_00 }],
      });
      const noRate = fieldsFor(eur.invoiceNumber, { amount: "9100", currency: "KES" });
      const refused = await record("editor", noRate);
      expect(refused.status).toBe(400);
      expect(formError(refused)).toEqual([
        "The invoice is in EUR and no KES rate is configured for it; record the payment in EUR.",
      ]);
      expect(await paymentByReference(noRate.reference)).toBeUndefined();
    } finally {
      setEnv(before);
    }
  });

  it("refuses an amount above ten times the amount due with the form's message, recording nothing", async () => {
    const { order, invoiceNumber } = await newOrder();
    const refused = await record("editor", fieldsFor(invoiceNumber, { amount: "100000.01" }));
    expect(refused.status).toBe(400);
    expect(formError(refused)).toEqual([AMOUNT_TOO_LARGE_MESSAGE]);
    const absurd = await record("admin", fieldsFor(invoiceNumber, { amount: "9999999999999.99" }));
    expect(absurd.status).toBe(400);
    expect(formError(absurd)).toEqual([AMOUNT_TOO_LARGE_MESSAGE]);
    const [unchanged] = await database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(unchanged.paidMinor).toBe(0);
    // A payment matching no invoice keeps its own upper bound.
    const unmatched = await record(
      "admin",
      fieldsFor("INV-1999-777777", { amount: "10000000.01" }),
    );
    expect(unmatched.status).toBe(400);
    expect(formError(unmatched)?.[0]).toContain("A payment that matches no invoice can be at most");
  });

  it("lets nobody record a payment for their own order, and only admins record cash and other", async () => {
    const editorId = await idOf("ed@example.com");
    const own = await createOrder({
      buyer: { id: editorId, name: "Ed Itor", email: "ed@example.com" },
      currency: "KES",
      holdMs: 72 * HOUR,
      lines: [ticketLine()],
    });
    const selfPaid = await record("editor", fieldsFor(own.invoiceNumber, { amount: "10000" }));
    expect(selfPaid.status).toBe(403);
    expect(formError(selfPaid)).toEqual([
      "You bought this order, so you cannot record a payment for it; ask another staff member.",
    ]);
    const [untouched] = await database.db.select().from(orders).where(eq(orders.id, own.order.id));
    expect(untouched).toMatchObject({ state: "awaiting_payment", paidMinor: 0 });

    const { invoiceNumber } = await newOrder();
    for (const method of ["cash", "other"]) {
      const refused = await record("editor", fieldsFor(invoiceNumber, { method, amount: "10000" }));
      expect(refused.status, method).toBe(403);
      expect(formError(refused), method).toEqual([
        "Only admins can record cash and other payments.",
      ]);
    }
    const cash = await record(
      "admin",
      fieldsFor(invoiceNumber, { method: "cash", amount: "10000" }),
    );
    expect(cash.status).toBe(302);

    // The match intent is the admins' (editors never see payments matching no invoice).
    const kept = fieldsFor("INV-1999-888888");
    expect((await record("admin", kept)).status).toBe(302);
    const payment = await paymentByReference(kept.reference);
    const other = await newOrder();
    const match = await postForm("editor", {
      intent: "match",
      paymentId: payment.id,
      invoiceNumber: other.invoiceNumber,
    });
    expect(match.status).toBe(403);
    expect((await paymentByReference(kept.reference)).orderId).toBeNull();
  });

  it("answers 404 to an editor for a membership order's page and every PDF, 200 to an admin", async () => {
    const admin = await systemAdmin();
    const membership = await newOrder(membershipLine());
    const paid = await recordPayment(
      {
        method: "mpesa",
        reference: nextReference(),
        amountMinor: 10_000_00,
        currency: "KES",
        paidAt: new Date(),
        invoiceNumber: membership.invoiceNumber,
      },
      admin,
    );
    if (paid.outcome !== "matched") throw new Error(paid.outcome);
    const [receipt] = await database.db
      .select({ id: receipts.id })
      .from(receipts)
      .where(eq(receipts.paymentId, paid.paymentId));
    const { refund } = await recordRefund(
      {
        orderId: membership.order.id,
        amountMinor: 1_000_00,
        method: "mpesa",
        reference: nextReference(),
      },
      admin,
    );
    const id = membership.order.id;
    const open = (who: Who) =>
      Promise.all([
        answer(() => orderLoader(args(get(`/orders/${id}`, who), { id }))),
        answer(() => invoiceLoader(args(get(`/orders/${id}/invoice.pdf`, who), { id }))),
        answer(() => receiptLoader(args(get("/x", who), { id, receiptId: receipt.id }))),
        answer(() => creditNoteLoader(args(get("/x", who), { id, refundId: refund.id }))),
      ]).then((all) => all.map((o) => o.status));
    expect(await open("editor")).toEqual([404, 404, 404, 404]);
    expect(await open("admin")).toEqual([200, 200, 200, 200]);

    // The credit note is a PDF like the invoice.
    const pdf = await answer(() =>
      creditNoteLoader(args(get("/x", "admin"), { id, refundId: refund.id })),
    );
    expect(pdf.response?.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.response?.headers.get("cache-control")).toBe("private, no-store");
    // A made-up credit note id is 404.
    const madeUp = await answer(() =>
      creditNoteLoader(args(get("/x", "admin"), { id, refundId: crypto.randomUUID() })),
    );
    expect(madeUp.status).toBe(404);
  });

  it("lists money on closed and over-paid orders for staff, reinstates a covered order and records refunds (admins)", async () => {
    const admin = await systemAdmin();
    const payFor = (invoiceNumber: string, amountMinor: number) =>
      recordPayment(
        {
          method: "mpesa",
          reference: nextReference(),
          amountMinor,
          currency: "KES",
          paidAt: new Date(),
          invoiceNumber,
        },
        admin,
      );
    // A membership order that expired, then was paid in full: reinstatable.
    const late = await newOrder(membershipLine());
    await expireOrder(late.order.id, new Date(Date.now() + 100 * HOUR));
    await payFor(late.invoiceNumber, 10_000_00);
    // An event order paid twice.
    const twice = await newOrder();
    const firstOfTwice = await payFor(twice.invoiceNumber, 10_000_00);
    const secondOfTwice = await payFor(twice.invoiceNumber, 10_000_00);

    const adminPage = await paymentsLoader(args(get("/admin/payments", "admin")));
    expect(adminPage.attention.find((o) => o.id === late.order.id)).toMatchObject({
      state: "Expired",
      credit: "KES 10,000.00",
      canReinstate: true,
    });
    expect(adminPage.attention.find((o) => o.id === twice.order.id)).toMatchObject({
      state: "Paid",
      credit: "KES 10,000.00",
      canReinstate: false,
    });
    const editorPage = await paymentsLoader(args(get("/admin/payments", "editor")));
    expect(editorPage.attention.some((o) => o.id === late.order.id)).toBe(false); // membership
    expect(editorPage.attention.some((o) => o.id === twice.order.id)).toBe(true);

    const html = await renderPage("admin");
    expect(html).toMatch(/Needs attention \(\d+\)/);
    expect(html).toContain(`aria-label="Reinstate order ${late.invoiceNumber}"`);
    expect(html).toContain(`aria-label="Refund order ${twice.invoiceNumber}"`);
    expect(await renderPage("editor")).not.toContain("Refund order");

    // Editors cannot reinstate a membership order nor record refunds.
    const editorReinstate = await postForm("editor", {
      intent: "reinstate",
      orderId: late.order.id,
    });
    expect(editorReinstate.status).toBe(403);
    const refundFields = {
      intent: "refund",
      orderId: twice.order.id,
      amount: "10000",
      method: "mpesa",
      reference: nextReference(),
      reason: "Paid twice",
    };
    const editorRefund = await postForm("editor", refundFields);
    expect(editorRefund.status).toBe(403);
    expect(formError(editorRefund)).toEqual(["Only admins can record refunds."]);

    const reinstated = await postForm("admin", { intent: "reinstate", orderId: late.order.id });
    expect(reinstated.status).toBe(302);
    const [paidAgain] = await database.db.select().from(orders).where(eq(orders.id, late.order.id));
    expect(paidAgain.state).toBe("paid");

    const tooMuch = await postForm("admin", { ...refundFields, amount: "20000.01" });
    expect(tooMuch.status).toBe(400);
    expect(formError(tooMuch)).toEqual([
      "At most KES 20,000.00 can be refunded: what was paid and not refunded yet.",
    ]);
    const refunded = await postForm("admin", refundFields);
    expect(refunded.status).toBe(302);
    const rows = await database.db
      .select()
      .from(refunds)
      .where(eq(refunds.orderId, twice.order.id));
    expect(rows).toMatchObject([{ amountMinor: 10_000_00, reason: "Paid twice" }]);
    expect(rows[0].creditNoteNumber).toMatch(/^CN-\d{4}-\d{6}$/);
    const [stillPaid] = await database.db
      .select()
      .from(orders)
      .where(eq(orders.id, twice.order.id));
    expect(stillPaid).toMatchObject({ state: "paid", refundedMinor: 10_000_00 });
    const after = await paymentsLoader(args(get("/admin/payments", "admin")));
    expect(after.attention.some((o) => o.id === twice.order.id)).toBe(false);
    expect(after.attention.some((o) => o.id === late.order.id)).toBe(false);

    // ?refund= preselects the order in the refund form.
    const preselected = await paymentsLoader(
      args(get(`/admin/payments?refund=${twice.order.id}`, "admin")),
    );
    expect(preselected.refund).toMatchObject({
      orderId: twice.order.id,
      refundable: "KES 10,000.00",
      refundableAmount: "10000.00",
    });
    // The form picks the payment the money goes back from: only those with money left (the
    // unnamed refund above came from the latest one).
    const [refundedRow] = await database.db
      .select()
      .from(refunds)
      .where(eq(refunds.orderId, twice.order.id));
    expect([firstOfTwice.paymentId, secondOfTwice.paymentId]).toContain(refundedRow.paymentId);
    const leftId =
      refundedRow.paymentId === firstOfTwice.paymentId
        ? secondOfTwice.paymentId
        : firstOfTwice.paymentId;
    expect(preselected.refund?.payments).toEqual([
      expect.objectContaining({ id: leftId, label: expect.stringMatching(/KES 10,000\.00 left$/) }),
    ]);
    const fromSpent = await postForm("admin", {
      ...refundFields,
      reference: nextReference(),
      amount: "1",
      paymentId: refundedRow.paymentId ?? "",
    });
    expect(fromSpent.status).toBe(400);
    expect(formError(fromSpent)?.[0]).toMatch(/^Nothing of payment \S+ is left to refund/);
  });

  it("refuses a buyer cancelling a part-paid order by posting the hidden intent", async () => {
    const admin = await systemAdmin();
    const janeId = await idOf("jane@example.com");
    const order = await createOrder({
      buyer: { id: janeId, name: "Jane", email: "jane@example.com" },
      currency: "KES",
      holdMs: 72 * HOUR,
      lines: [ticketLine()],
    });
    await recordPayment(
      {
        method: "mpesa",
        reference: nextReference(),
        amountMinor: 2_000_00,
        currency: "KES",
        paidAt: new Date(),
        invoiceNumber: order.invoiceNumber,
      },
      admin,
    );
    const id = order.order.id;
    const page = await answer(() => orderLoader(args(get(`/orders/${id}`, "user"), { id })));
    expect((page.body as { canCancel: boolean }).canCancel).toBe(false);
    const cancel = await answer(() =>
      orderAction(
        args(
          new Request(`${ORIGIN}/orders/${id}`, {
            method: "POST",
            headers: headers("user", { "content-type": "application/x-www-form-urlencoded" }),
            // Confirmed, as the page's second step posts it: the part-paid rule still refuses.
            body: new URLSearchParams({ intent: "cancel", [CONFIRM_FIELD]: "yes" }),
          }),
          { id },
        ),
      ),
    );
    expect(cancel.status).toBe(409);
    expect(cancel.body).toEqual({ error: PART_PAID_CANCEL_MESSAGE });
    const [still] = await database.db.select().from(orders).where(eq(orders.id, id));
    expect(still.state).toBe("awaiting_payment");
  });

  it("takes staff who cancel a paid registration to the refund step, with the money listed", async () => {
    const admin = await systemAdmin();
    const janeId = await idOf("jane@example.com");
    const start = new Date(Date.now() + 30 * 24 * HOUR);
    const [event] = await database.db
      .insert(events)
      .values({
        title: "Refund step forum",
        slug: `refund-step-${crypto.randomUUID().slice(0, 8)}`,
        location: "Nairobi, Kenya",
        startDate: start,
        endDate: new Date(start.getTime() + 24 * HOUR),
        status: "published",
      })
      .returning();
    const [fee] = await database.db
      .insert(eventFees)
      .values({ eventId: event.id, amountMinor: 150000, currency: "KES", maxPerAccount: 5 })
      .returning();
    const cancelAs = (who: Who, registrationId: string) =>
      answer(() =>
        registrationsAction(
          args(
            new Request(`${ORIGIN}/admin/events/${event.id}/registrations`, {
              method: "POST",
              headers: headers(who, { "content-type": "application/x-www-form-urlencoded" }),
              body: new URLSearchParams({ intent: "cancel", registrationId }),
            }),
            { id: event.id },
          ),
        ),
      );
    const book = async (amountMinor: number) => {
      const booked = await registerForEvent({
        eventId: event.id,
        feeId: fee.id,
        quantity: 1,
        account: { id: janeId, name: "Jane", email: "jane@example.com" },
        attendee: { name: "Jane", email: "jane@example.com" },
      });
      await recordPayment(
        {
          method: "mpesa",
          reference: nextReference(),
          amountMinor,
          currency: "KES",
          paidAt: new Date(),
          invoiceNumber: booked.invoiceNumber ?? "",
        },
        admin,
      );
      // The paid order confirms its registration (other tests' jobs may be due first).
      while ((await runDueJobs({ limit: 50 })) > 0) {}
      return booked;
    };

    // Paid and confirmed, then cancelled by an editor: on to the refund step.
    const paid = await book(1_500_00);
    const cancelled = await cancelAs("editor", paid.registrationId);
    expect(cancelled.status).toBe(302);
    expect(cancelled.response?.headers.get("location")).toBe(
      `/admin/payments?refund=${paid.orderId}#refund`,
    );
    const page = await paymentsLoader(args(get(`/admin/payments?refund=${paid.orderId}`, "admin")));
    expect(page.refund).toMatchObject({ orderId: paid.orderId, refundable: "KES 1,500.00" });
    expect(page.attention.find((o) => o.id === paid.orderId)).toMatchObject({
      state: "Registration cancelled",
      credit: "KES 1,500.00",
    });

    // Part paid, still awaiting the rest, cancelled by staff: the order closes with its money.
    const partPaid = await book(500_00);
    const closed = await cancelAs("editor", partPaid.registrationId);
    expect(closed.response?.headers.get("location")).toBe(
      `/admin/payments?refund=${partPaid.orderId}#refund`,
    );
    const [order] = await database.db
      .select()
      .from(orders)
      .where(eq(orders.id, partPaid.orderId ?? ""));
    expect(order).toMatchObject({ state: "cancelled", paidMinor: 500_00 });
  });

  it("dates a payment at noon of the typed day in Nairobi and reads amounts in the currency's decimals", async () => {
    const { invoiceNumber } = await newOrder();
    const fields = fieldsFor(invoiceNumber, { amount: "10000", paidOn: "2026-12-31" });
    expect((await record("editor", fields)).status).toBe(302);
    const payment = await paymentByReference(fields.reference);
    // 12:00 in Nairobi (UTC+3) is 09:00 UTC, on the typed day whatever the server's zone.
    expect(payment.paidAt.toISOString()).toBe("2026-12-31T09:00:00.000Z");
    expect(payment.amountMinor).toBe(10_000_00);

    // UGX has no decimals: '1500.50' is refused with the reason, and nothing is recorded.
    const before = await paymentCount();
    const ugx = await record(
      "admin",
      fieldsFor(invoiceNumber, { amount: "1500.50", currency: "UGX" }),
    );
    expect(ugx.status).toBe(400);
    expect((ugx.body as FormReply).result?.error?.amount).toEqual(["UGX amounts have no decimals"]);
    expect(await paymentCount()).toBe(before);
  });
});
