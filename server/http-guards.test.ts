import { describe, expect, it } from "vitest";
import { acceptedHostnames, acceptedOrigins } from "./http-guards";

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
