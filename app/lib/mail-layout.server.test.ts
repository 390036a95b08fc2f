import { describe, expect, it } from "vitest";
import { env } from "./env.server";
import { MAIL_PRIMARY, type MailMessage, renderMail } from "./mail-layout.server";

const message: MailMessage = {
  subject: "You're registered: Records <Summit> & Expo",
  greeting: "Hello,",
  blocks: [
    { kind: "paragraph", text: 'You are registered for Records <Summit> & Expo: "Early bird".' },
    {
      kind: "facts",
      rows: [
        ["When", "3–5 March 2027"],
        ["Where", "KICC <Nairobi>"],
      ],
    },
    { kind: "button", label: "Show your ticket", url: "http://localhost:3000/tickets/r-1?a=1&b=2" },
    { kind: "quote", text: "<img src=x onerror=alert(1)>\nsecond line" },
    { kind: "note", text: "You can cancel online until 1 March." },
  ],
};

describe("renderMail", () => {
  it("writes a text part that reads alone: every sentence, fact and link, no markup", () => {
    const { subject, text } = renderMail(message);
    expect(subject).toBe(message.subject);
    expect(text).toBe(
      `${[
        "Hello,",
        'You are registered for Records <Summit> & Expo: "Early bird".',
        "When: 3–5 March 2027\nWhere: KICC <Nairobi>",
        "Show your ticket:\nhttp://localhost:3000/tickets/r-1?a=1&b=2",
        "<img src=x onerror=alert(1)>\nsecond line",
        "You can cancel online until 1 March.",
        `-- \nKongamano\n${env().BASE_URL}`,
      ].join("\n\n")}\n`,
    );
  });

  it("writes the HTML part from the same blocks: language, logo with alt, one brand button", () => {
    const { html } = renderMail(message);
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="en" dir="ltr">/);
    expect(html).toContain(
      "<title>You&#39;re registered: Records &#60;Summit&#62; &#38; Expo</title>",
    );
    // The logo from the site's public origin (mail programs cannot resolve relative URLs).
    expect(html).toContain(
      `<img src="${env().BASE_URL}/mail-logo.png" width="48" height="48" alt="Kongamano"`,
    );
    for (const img of html.match(/<img\b[^>]*>/g) ?? []) expect(img).toMatch(/ alt="[^"]+"/);
    // Layout tables are announced as layout, never as data tables; the facts use row headers.
    for (const table of html.match(/<table\b[^>]*>/g) ?? []) {
      expect(table).toContain('role="presentation"');
    }
    expect(html).toContain('<th scope="row"');
    // Exactly one button, in the primary colour, linking to the escaped URL.
    expect(html.match(new RegExp(`bgcolor="${MAIL_PRIMARY}"`, "g"))).toHaveLength(1);
    expect(html).toContain(
      'href="http://localhost:3000/tickets/r-1?a=1&#38;b=2" style="display:inline-block',
    );
    // Inline styles only: no style sheet, no classes, no script.
    expect(html).not.toMatch(/<style|class=|<script/i);
  });

  it("escapes every piece of text, so nothing typed becomes markup", () => {
    const { html } = renderMail(message);
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&#60;img src=x onerror=alert(1)&#62;\nsecond line");
    expect(html).toContain("KICC &#60;Nairobi&#62;");
    expect(html).toContain("Records &#60;Summit&#62; &#38; Expo: &#34;Early bird&#34;.");
  });

  it("refuses a second button and any link that is not a web address", () => {
    const button = { kind: "button", label: "Go", url: "https://kongamano.org/" } as const;
    expect(() => renderMail({ subject: "Two", blocks: [button, button] })).toThrow(/One button/);
    expect(() =>
      renderMail({ subject: "Trap", blocks: [{ ...button, url: "javascript:alert(1)" }] }),
    ).toThrow(/http\(s\)/);
  });
});
