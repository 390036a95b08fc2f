import { describe, expect, it } from "vitest";
import { subjectForTopic } from "./contact-topics";

describe("subjectForTopic", () => {
  it.each([
    ["partnership", "Partnership Inquiry"],
    ["demo", "Schedule a Membership Demo"],
    ["media-kit", "Media Kit Request"],
    ["consultation", "Schedule a Consultation"],
    ["global-team", "Message for the Global Team"],
    ["membership", "Membership Inquiry"],
    ["media", "Media Inquiry"],
    ["event-registration", "Event Registration"],
    ["paper-submission", "Research Paper Submission"],
    ["support", "Support Request"],
    ["sponsorship-platinum", "Platinum Sponsorship Inquiry"],
    ["sponsorship-bronze", "Bronze Sponsorship Inquiry"],
    ["advertising-website-banner", "Website Banner Inquiry"],
    ["advertising-paper-sponsorship", "Research Paper Sponsorship Inquiry"],
    ["speaking-opportunities", "Speaking Opportunities"],
    ["PARTNERSHIP", "Partnership Inquiry"],
  ])("%s → %s", (topic, subject) => {
    expect(subjectForTopic(topic)).toBe(subject);
  });

  it("names the event or paper when given", () => {
    expect(subjectForTopic("registration", { event: "  Data Governance   Summit " })).toBe(
      "Event Registration: Data Governance Summit",
    );
    expect(subjectForTopic("report-issue", { paper: "Metadata at Scale" })).toBe(
      "Report an Issue: Metadata at Scale",
    );
    expect(subjectForTopic("report-issue")).toBe("Report an Issue");
  });

  it("gives no subject without a usable topic and never an overlong one", () => {
    expect(subjectForTopic(null)).toBe("");
    expect(subjectForTopic("  ")).toBe("");
    expect(subjectForTopic("<script>")).toBe("Script");
    expect(subjectForTopic("registration", { event: "x".repeat(500) }).length).toBeLessThanOrEqual(
      200,
    );
  });
});
