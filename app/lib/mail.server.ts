import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { and, eq, isNull, sql } from "drizzle-orm";
import nodemailer, { type SendMailOptions, type Transporter } from "nodemailer";
import { getDb } from "~/db/client.server";
import { sentMail } from "~/db/schema";
import { env } from "./env.server";
import { logger } from "./logger.server";

export type MailAttachment = { filename: string; content: Buffer; contentType: string };

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  attachments?: MailAttachment[];
  /** Message-ID header (sendMailOnce sets one derived from its key). */
  messageId?: string;
};

/**
 * Every mail the site sends is machine-made (RFC 3834): out-of-office responders and mail
 * filters must not answer it. Exchange reads its own header for the same thing.
 */
export const AUTOMATIC_MAIL_HEADERS = {
  "Auto-Submitted": "auto-generated",
  "X-Auto-Response-Suppress": "All",
} as const;

let transport: { url: string; transporter: Transporter } | undefined;

function smtpTransport(url: string) {
  if (transport?.url !== url) {
    transport = { url, transporter: nodemailer.createTransport(url) };
  }
  return transport.transporter;
}

/** Builds messages without sending them: the outbox gets exactly what SMTP would carry. */
const messageBuilder = nodemailer.createTransport({ streamTransport: true, buffer: true });

function messageOptions(mail: Mail, from: string): SendMailOptions {
  return { from, ...mail, headers: AUTOMATIC_MAIL_HEADERS };
}

/**
 * Sends a mail over SMTP_URL; without it, writes the RFC 5322 message SMTP would have carried
 * to DATA_DIR/outbox/<stem>.eml (any mail client opens it), its attachments beside it as
 * <stem>-<name>, and logs where, so sign-up verification works on a laptop. Throws when
 * delivery fails.
 */
export async function sendMail(mail: Mail) {
  const config = env();
  const options = messageOptions(mail, config.MAIL_FROM);
  if (config.SMTP_URL) {
    await smtpTransport(config.SMTP_URL).sendMail(options);
    logger.info({ to: mail.to, subject: mail.subject }, "mail sent");
    return;
  }
  const { message } = await messageBuilder.sendMail(options);
  const dir = path.resolve(config.DATA_DIR, "outbox");
  await mkdir(dir, { recursive: true });
  const stem = `${new Date().toISOString().replace(/[:.]/g, "-")}-${Math.random().toString(36).slice(2, 8)}`;
  const file = path.join(dir, `${stem}.eml`);
  await writeFile(file, message as Buffer);
  // The attachments also as files, so an invoice PDF opens straight from the folder.
  const attachmentFiles: string[] = [];
  for (const attachment of mail.attachments ?? []) {
    const name = `${stem}-${path.basename(attachment.filename).replace(/[^\w.-]+/g, "_")}`;
    await writeFile(path.join(dir, name), attachment.content);
    attachmentFiles.push(name);
  }
  // Never the mail's links: reset, verification and invitation links are keys to accounts.
  logger.info(
    { to: mail.to, subject: mail.subject, file, attachments: attachmentFiles },
    "mail written to outbox (no SMTP_URL)",
  );
}

/** A claim older than this whose mail is not marked sent was left by a worker that died. */
const SEND_CLAIM_STALE_MS = 10 * 60_000;

export class MailSendInProgressError extends Error {}

/**
 * Sends `mail` once per `key` (e.g. `receipt:<paymentId>`): the key is claimed in `sent_mail`
 * before sending and marked sent after, so a retried job gets "already-sent" instead of a second
 * copy. A failed send releases the claim (the retry sends). If the process dies between the SMTP
 * hand-over and the mark, the claim goes stale and a later retry sends again with the same
 * Message-ID, which mail clients show once (decision 0021). While another worker holds a fresh
 * claim this throws MailSendInProgressError, so the caller's job retries later.
 */
export async function sendMailOnce(key: string, mail: Mail): Promise<"sent" | "already-sent"> {
  const db = getDb();
  const messageId = `<${createHash("sha256").update(key).digest("hex").slice(0, 32)}@${mailDomain()}>`;
  const [claimed] = await db
    .insert(sentMail)
    .values({ key, recipient: mail.to, subject: mail.subject, messageId })
    .onConflictDoNothing({ target: sentMail.key })
    .returning({ key: sentMail.key });
  if (!claimed) {
    const [existing] = await db.select().from(sentMail).where(eq(sentMail.key, key));
    if (!existing) return sendMailOnce(key, mail); // the claim was released meanwhile
    if (existing.sentAt) return "already-sent";
    // Take over a stale claim atomically: only one retry wins it.
    const [taken] = await db
      .update(sentMail)
      .set({ claimedAt: sql`now()` })
      .where(
        and(
          eq(sentMail.key, key),
          isNull(sentMail.sentAt),
          sql`${sentMail.claimedAt} < now() - ${SEND_CLAIM_STALE_MS} * interval '1 millisecond'`,
        ),
      )
      .returning({ key: sentMail.key });
    if (!taken) throw new MailSendInProgressError(`Mail ${key} is being sent by another worker`);
  }
  try {
    await sendMail({ ...mail, messageId });
  } catch (error) {
    await db.delete(sentMail).where(and(eq(sentMail.key, key), isNull(sentMail.sentAt)));
    throw error;
  }
  await db.update(sentMail).set({ sentAt: sql`now()` }).where(eq(sentMail.key, key));
  return "sent";
}

function mailDomain() {
  return env().MAIL_FROM.match(/@([^>\s]+)/)?.[1] ?? "kongamano.invalid";
}
