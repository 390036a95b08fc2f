import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "./env.server";
import { logger } from "./logger.server";

export type Mail = { to: string; subject: string; text: string; html?: string; replyTo?: string };

let transport: { url: string; transporter: Transporter } | undefined;

function smtpTransport(url: string) {
  if (transport?.url !== url) {
    transport = { url, transporter: nodemailer.createTransport(url) };
  }
  return transport.transporter;
}

/**
 * Sends a mail over SMTP_URL; without it, writes it to DATA_DIR/outbox/ and logs it (with its
 * links) so sign-up verification works on a laptop. Throws when delivery fails.
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
  const file = path.join(
    dir,
    `${new Date().toISOString().replace(/[:.]/g, "-")}-${Math.random().toString(36).slice(2, 8)}.eml.txt`,
  );
  await writeFile(
    file,
    `From: ${config.MAIL_FROM}\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`,
  );
  const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
  logger.info(
    { to: mail.to, subject: mail.subject, file, links },
    "mail written to outbox (no SMTP_URL)",
  );
}

/** Escapes text for HTML mail bodies. */
export function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
