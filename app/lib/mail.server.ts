import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { and, eq, isNull, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
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

let transport: { url: string; transporter: Transporter } | undefined;

function smtpTransport(url: string) {
  if (transport?.url !== url) {
    transport = { url, transporter: nodemailer.createTransport(url) };
  }
  return transport.transporter;
}

/**
 * Sends a mail over SMTP_URL; without it, writes it to DATA_DIR/outbox/ (and logs where) so
 * sign-up verification works on a laptop. Throws when delivery fails.
 */
export async function sendMail(mail: Mail) {
  const config = env();
  if (config.SMTP_URL) {
    await smtpTransport(config.SMTP_URL).sendMail({ from: config.MAIL_FROM, ...mail });
    logger.info({ to: mail.to, subject: mail.subject }, "mail sent");
    return;
  }
  const dir = path.resolve(config.DATA_DIR, "outbox");
  await mkdir(dir, { recursive: true });
  const stem = `${new Date().toISOString().replace(/[:.]/g, "-")}-${Math.random().toString(36).slice(2, 8)}`;
  const file = path.join(dir, `${stem}.eml.txt`);
  // Attachments are written beside the message, so an invoice PDF opens straight from the folder.
  const attachmentFiles: string[] = [];
  for (const attachment of mail.attachments ?? []) {
    const name = `${stem}-${path.basename(attachment.filename).replace(/[^\w.-]+/g, "_")}`;
    await writeFile(path.join(dir, name), attachment.content);
    attachmentFiles.push(name);
  }
  const headers = [
    `From: ${config.MAIL_FROM}`,
    `To: ${mail.to}`,
    `Subject: ${mail.subject}`,
    ...(mail.messageId ? [`Message-ID: ${mail.messageId}`] : []),
    ...attachmentFiles.map((name) => `X-Attachment-File: ${name}`),
  ];
  await writeFile(file, `${headers.join("\n")}\n\n${mail.text}\n`);
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

/** Escapes text for HTML mail bodies. */
export function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
