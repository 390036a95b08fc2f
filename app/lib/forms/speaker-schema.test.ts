import { expect, it } from "vitest";
import { parseForm } from "~/models/shared/test-support";
import { SpeakerFormSchema } from "./speaker-schema";

const parse = (fields: Record<string, string>) => parseForm(SpeakerFormSchema, fields);

it("requires a name: 'Name is required'", () => {
  expect(parse({ name: "" }).error?.name).toEqual(["Name is required"]);
  expect(parse({ name: "   " }).error?.name).toEqual(["Name is required"]);
});

it("keeps optional fields as null when empty", () => {
  const result = parse({ name: " Wanjiru Kamau ", title: "", organization: "", bio: "" });
  expect(result.status).toBe("success");
  expect(result.value).toEqual({
    name: "Wanjiru Kamau",
    title: null,
    organization: null,
    bio: null,
    imageUrl: null,
  });
});

it("accepts only our uploaded images or web addresses as the photo", () => {
  expect(parse({ name: "A", imageUrl: "/uploads/images/abc-123.webp" }).status).toBe("success");
  expect(parse({ name: "A", imageUrl: "https://cdn.example.org/a.jpg" }).status).toBe("success");
  expect(parse({ name: "A", imageUrl: "javascript:alert(1)" }).error?.imageUrl).toBeTruthy();
});
