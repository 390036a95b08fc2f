import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type CapturedMail = {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Every header as received, unfolded, by its lower-case name (the last of repeated ones). */
  headers: Record<string, string>;
  attachments: { filename: string; contentType: string; content: Buffer }[];
};

/** An in-process SMTP server that keeps every message it receives (tests read them back). */
export async function startTestSmtp(port = 0) {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push({
            from: mail.from?.text ?? "",
            to: (session.envelope.rcptTo ?? []).map((r) => r.address),
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            html: typeof mail.html === "string" ? mail.html : "",
            messageId: mail.messageId ?? "",
            headers: Object.fromEntries(
              mail.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(":") + 1).trim()]),
            ),
            attachments: mail.attachments.map((a) => ({
              filename: a.filename ?? "",
              contentType: a.contentType,
              content: a.content,
            })),
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  return {
    url: `smtp://127.0.0.1:${actualPort}`,
    port: actualPort,
    messages,
    /** Waits for a message to `to` (optionally matching a subject) and returns it. */
    async waitFor(to: string, subject?: RegExp, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages.find(
          (m) => m.to.includes(to.toLowerCase()) && (!subject || subject.test(m.subject)),
        );
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
