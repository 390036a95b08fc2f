// One template per message: a mail module describes its message once, as blocks of plain text,
// and this module writes both parts from them: a text part that reads alone, and an HTML part in
// the site's look (logo, primary colour, one button) with inline styles only, every piece of text
// escaped. Nothing here reads the database; the site's public origin comes from BASE_URL.
import { env } from "./env.server";

export type MailBlock =
  /** A paragraph. */
  | { kind: "paragraph"; text: string }
  /** Labelled facts ("When", "Where"), one per line. */
  | { kind: "facts"; rows: readonly (readonly [label: string, value: string])[] }
  /** The message's main action: one per message, a button in HTML, "label: url" in text. */
  | { kind: "button"; label: string; url: string }
  /** A secondary link, written out in both parts. */
  | { kind: "link"; label: string; url: string }
  /** Text someone typed, kept as typed (line breaks), set apart from ours. */
  | { kind: "quote"; text: string }
  /** Small print under the rest (deadlines, "if this was not you"). */
  | { kind: "note"; text: string };

export type MailMessage = {
  subject: string;
  /** The opening line ("Hello,"); see greeting(). */
  greeting?: string;
  blocks: readonly MailBlock[];
};

export type RenderedMail = { subject: string; text: string; html: string };

/** The site's primary colour (design.md §4b); white on it is 5.1:1. */
export const MAIL_PRIMARY = "#0B5FFF";
const INK = "#111827";
const MUTED = "#4B5563";
const RULE = "#E5E7EB";
const PAGE = "#F3F4F6";
const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/** Where the logo is served from (public/mail-logo.png, 96 px shown at 48). */
export const MAIL_LOGO_PATH = "/mail-logo.png";

/**
 * The opening line. A name only for a mail to the account holder's own address: a name someone
 * typed is never mailed to an address they typed (a billing contact, an attendee).
 */
export function greeting(name: string | null) {
  return name ? `Dear ${name},` : "Hello,";
}

/** Escapes text for HTML mail bodies and attribute values. */
export function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Only web links go into a mail: a javascript: or data: URL would be a trap in an HTML part. */
function webUrl(url: string) {
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new Error(`Mail links must be http(s): ${parsed.protocol}`);
  }
  return parsed.href;
}

export function renderMail(message: MailMessage): RenderedMail {
  const buttons = message.blocks.filter((b) => b.kind === "button");
  if (buttons.length > 1) throw new Error(`One button per mail: "${message.subject}" has more`);
  const origin = env().BASE_URL;
  return {
    subject: message.subject,
    text: renderText(message, origin),
    html: renderHtml(message, origin),
  };
}

function blockText(block: MailBlock): string {
  switch (block.kind) {
    case "paragraph":
    case "note":
    case "quote":
      return block.text;
    case "facts":
      return block.rows.map(([label, value]) => `${label}: ${value}`).join("\n");
    case "button":
    case "link":
      // The link on a line of its own: mail programs make it clickable whole.
      return `${block.label}:\n${webUrl(block.url)}`;
  }
}

function renderText(message: MailMessage, origin: string) {
  const parts = [
    ...(message.greeting ? [message.greeting] : []),
    ...message.blocks.map(blockText),
    `-- \nKongamano\n${origin}`,
  ];
  return `${parts.join("\n\n")}\n`;
}

const P = `margin:0 0 16px;font-size:16px;line-height:24px;color:${INK}`;

function blockHtml(block: MailBlock) {
  switch (block.kind) {
    case "paragraph":
      return `<p style="${P}">${lines(block.text)}</p>`;
    case "note":
      return `<p style="margin:0 0 16px;font-size:14px;line-height:20px;color:${MUTED}">${lines(block.text)}</p>`;
    case "quote":
      return `<div style="margin:0 0 16px;padding:12px 16px;border-left:4px solid ${RULE};background:${PAGE};font-size:15px;line-height:22px;color:${INK};white-space:pre-wrap">${escapeHtml(block.text)}</div>`;
    case "facts":
      return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;border-collapse:collapse">${block.rows
        .map(
          ([label, value]) =>
            `<tr><th scope="row" align="left" valign="top" style="padding:4px 16px 4px 0;font-size:15px;line-height:22px;font-weight:600;color:${MUTED};text-align:left">${escapeHtml(label)}</th><td style="padding:4px 0;font-size:15px;line-height:22px;color:${INK}">${escapeHtml(value)}</td></tr>`,
        )
        .join("")}</table>`;
    case "button": {
      const href = escapeHtml(webUrl(block.url));
      // A table cell carries the colour too: Outlook for Windows ignores padding on links.
      return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px"><tr><td align="center" bgcolor="${MAIL_PRIMARY}" style="border-radius:6px;background:${MAIL_PRIMARY}"><a href="${href}" style="display:inline-block;padding:12px 24px;border-radius:6px;font-size:16px;line-height:24px;font-weight:600;color:#FFFFFF;text-decoration:none">${escapeHtml(block.label)}</a></td></tr></table><p style="margin:0 0 16px;font-size:13px;line-height:20px;color:${MUTED}">If the button does not work, copy this link into your browser:<br><a href="${href}" style="color:${MAIL_PRIMARY};word-break:break-all">${escapeHtml(webUrl(block.url))}</a></p>`;
    }
    case "link": {
      const href = escapeHtml(webUrl(block.url));
      return `<p style="${P}">${escapeHtml(block.label)}: <a href="${href}" style="color:${MAIL_PRIMARY};word-break:break-all">${escapeHtml(webUrl(block.url))}</a></p>`;
    }
  }
}

/** Escaped text whose line breaks stay line breaks. */
function lines(text: string) {
  return escapeHtml(text).replace(/\n/g, "<br>");
}

function renderHtml(message: MailMessage, origin: string) {
  const home = escapeHtml(`${origin}/`);
  const body = [
    ...(message.greeting ? [`<p style="${P}">${escapeHtml(message.greeting)}</p>`] : []),
    ...message.blocks.map(blockHtml),
  ].join("\n");
  return `<!DOCTYPE html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${escapeHtml(message.subject)}</title>
</head>
<body style="margin:0;padding:0;background:${PAGE};font-family:${FONT}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${PAGE}">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#FFFFFF;border-radius:8px;border-top:4px solid ${MAIL_PRIMARY}">
<tr><td style="padding:24px 32px 8px;font-family:${FONT}">
<a href="${home}" style="text-decoration:none"><img src="${escapeHtml(`${origin}${MAIL_LOGO_PATH}`)}" width="48" height="48" alt="Kongamano" style="display:block;border:0;border-radius:8px"></a>
</td></tr>
<tr><td style="padding:16px 32px 8px;font-family:${FONT}">
${body}
</td></tr>
<tr><td style="padding:16px 32px 24px;border-top:1px solid ${RULE};font-family:${FONT};font-size:13px;line-height:20px;color:${MUTED}">
Kongamano · <a href="${home}" style="color:${MUTED}">${escapeHtml(origin.replace(/^https?:\/\//, ""))}</a>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}
