import { parse } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ContactFormSchema } from "~/models/messages/contact.server";
import { CONTACT_MESSAGES, checkContactFields } from "./contact-form-rules";

function formData(fields: Record<string, string>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

function browserErrors(fields: Record<string, string>) {
  const submission = parse(formData(fields), {
    resolve: (payload) => {
      const error = checkContactFields(payload);
      return error ? { error } : { value: payload };
    },
  });
  return submission.status === "error" ? submission.error : null;
}

function serverErrors(fields: Record<string, string>) {
  const submission = parseWithZod(formData(fields), { schema: ContactFormSchema });
  return submission.status === "error" ? submission.error : null;
}

const valid = {
  name: "Amani Njoroge",
  email: "amani@example.co.ke",
  subject: "Speaking at the summit",
  message: "I would like to propose a talk on records retention.",
  region: "none",
};

describe("contact form rules", () => {
  it("accepts a complete message, with or without a region", () => {
    expect(checkContactFields(valid)).toBeNull();
    expect(checkContactFields({ ...valid, region: "oceania" })).toBeNull();
    expect(serverErrors(valid)).toBeNull();
  });

  it("uses the same messages in the browser and in the action", () => {
    const empty = { name: " ", email: "", subject: "", message: "\n", region: "none" };
    const expected = {
      name: [CONTACT_MESSAGES.nameRequired],
      email: [CONTACT_MESSAGES.emailRequired],
      subject: [CONTACT_MESSAGES.subjectRequired],
      message: [CONTACT_MESSAGES.messageRequired],
    };
    expect(browserErrors(empty)).toEqual(expected);
    expect(serverErrors(empty)).toEqual(expected);
    for (const email of ["halima-at-example", "a@b", "a@@b.com", ".a@b.com", "a b@c.com"]) {
      expect(browserErrors({ ...valid, email })).toEqual({
        email: [CONTACT_MESSAGES.emailInvalid],
      });
      expect(serverErrors({ ...valid, email })).toEqual({ email: [CONTACT_MESSAGES.emailInvalid] });
    }
    expect(serverErrors({ ...valid, region: "mars" })).toEqual({
      region: [CONTACT_MESSAGES.regionInvalid],
    });
    expect(browserErrors({ ...valid, region: "mars" })).toEqual({
      region: [CONTACT_MESSAGES.regionInvalid],
    });
  });

  it("agrees with the Zod schema on any input", () => {
    const text = fc.oneof(
      fc.constantFrom("", " ", "ok", "x".repeat(201), "x".repeat(5001), " a@b.co ", "a@b.co"),
      fc.string({ maxLength: 40 }),
      fc.emailAddress(),
    );
    fc.assert(
      fc.property(
        fc.record({
          name: text,
          email: text,
          subject: text,
          message: text,
          region: fc.constantFrom("none", "africa", "europe", "global", "nowhere"),
        }),
        (fields) => {
          expect(browserErrors(fields)).toEqual(serverErrors(fields));
        },
      ),
      { numRuns: 300 },
    );
  });
});
