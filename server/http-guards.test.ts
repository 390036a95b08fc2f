import { describe, expect, it } from "vitest";
import { acceptedHostnames, acceptedOrigins, withoutControlCharacters } from "./http-guards";

describe("accepted hosts and origins", () => {
  it("answers only BASE_URL's host name in production", () => {
    expect(acceptedHostnames("https://kongamano.org")).toEqual(["kongamano.org"]);
    expect(acceptedOrigins("https://kongamano.org")).toEqual(["https://kongamano.org"]);
    // A loopback name is no alias of a public site (a request by IP would skip the Host check).
    expect(acceptedHostnames("https://kongamano.org")).not.toContain("localhost");
  });

  it("lets a developer use any loopback name for a loopback BASE_URL, on its port only", () => {
    expect(acceptedHostnames("http://localhost:3000")).toEqual(["localhost", "127.0.0.1", "[::1]"]);
    expect(acceptedOrigins("http://localhost:3000")).toEqual([
      "http://localhost:3000",
      "http://127.0.0.1:3000",
      "http://[::1]:3000",
    ]);
  });
});

describe("withoutControlCharacters: the body every action reads", () => {
  it("strips NUL and the other control characters from urlencoded names and values", async () => {
    const body = Buffer.from("name=Hal%00ima%01&message=line+one%0D%0Aline%09two%7F&x%00=1");
    const cleaned = await withoutControlCharacters(body, "application/x-www-form-urlencoded");
    const params = new URLSearchParams(cleaned?.body.toString());
    expect([...params]).toEqual([
      ["name", "Halima"],
      ["message", "line one\r\nline\ttwo"],
      ["x", "1"],
    ]);
  });

  it("strips them from multipart text fields and file names, never from file contents", async () => {
    const form = new FormData();
    form.append("email", "a\u0000@b.c");
    form.append("proof", new File([new Uint8Array([0, 1, 2, 127])], "card\u0000.pdf"));
    const encoded = new Response(form);
    const contentType = encoded.headers.get("content-type") ?? "";
    const cleaned = await withoutControlCharacters(
      Buffer.from(await encoded.arrayBuffer()),
      "multipart/form-data",
      form,
    );
    const read = await new Response(new Uint8Array(cleaned?.body ?? []), {
      headers: { "content-type": cleaned?.contentType ?? contentType },
    }).formData();
    expect(read.get("email")).toBe("a@b.c");
    const file = read.get("proof") as File;
    expect(file.name).toBe("card.pdf");
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([0, 1, 2, 127]);
  });

  it("strips them from JSON strings (better-auth's endpoints)", async () => {
    const body = Buffer.from(JSON.stringify({ name: "A\u0000B", nested: { n: ["\u001b[31m"] } }));
    const cleaned = await withoutControlCharacters(body, "application/json");
    expect(JSON.parse(cleaned?.body.toString() ?? "")).toEqual({
      name: "AB",
      nested: { n: ["[31m"] },
    });
  });

  it("leaves a clean body untouched (byte for byte)", async () => {
    const body = Buffer.from("name=Halima&message=Habari%2C+dunia");
    expect(
      await withoutControlCharacters(body, "application/x-www-form-urlencoded"),
    ).toBeUndefined();
    expect(
      await withoutControlCharacters(Buffer.from('{"a":"b"}'), "application/json"),
    ).toBeUndefined();
  });
});
