import { describe, expect, it } from "vitest";
import { CHAT_HELP_REPLY, chatReplyFor } from "./chat-replies";

describe("chatReplyFor", () => {
  it.each([
    ["What events are coming up?", "/events"],
    ["Tell me about the CONFERENCE in Nairobi", "/events"],
    ["Where can I find a paper on records?", "/papers"],
    ["I do research on AI", "/papers"],
    ["Which office is nearest?", "/offices"],
    ["What are your locations", "/offices"],
    ["How do I become a member?", "/membership"],
    ["I want to join", "/membership"],
    ["membership prices", "/membership"],
  ])("answers %j with a pointer to %s", (message, href) => {
    expect(chatReplyFor(message).link?.href).toBe(href);
  });

  it("prefers the first matching topic when several appear", () => {
    expect(chatReplyFor("research presented at events").link?.href).toBe("/events");
  });

  it("matches whole words only", () => {
    expect(chatReplyFor("preventative measures")).toBe(CHAT_HELP_REPLY);
    expect(chatReplyFor("rejoin")).toBe(CHAT_HELP_REPLY);
  });

  it("falls back to the help list", () => {
    const reply = chatReplyFor("hello there");
    expect(reply).toBe(CHAT_HELP_REPLY);
    expect(reply.text).toContain("Events and conferences");
    expect(reply.text).toContain("Membership");
  });
});
