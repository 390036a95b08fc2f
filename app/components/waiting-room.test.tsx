import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { WaitingRoom } from "./waiting-room";

function Page() {
  return (
    <WaitingRoom
      eventTitle="Annual Summit"
      state={{
        position: 7,
        queueNumber: "42.signature",
        fields: [
          ["intent", "register"],
          ["attendeeName", 'Wanjiru "Jiru" Kamau'],
          ["attendeeEmail", "wanjiru@example.test"],
        ],
        answeredAt: 1,
      }}
    />
  );
}

describe("WaitingRoom", () => {
  it("shows the place in a status line and keeps everything posted for the re-post, with a button that works without JavaScript", () => {
    const Stub = createRoutesStub([
      {
        path: "/events/summit/register",
        Component: Page,
      },
    ]);
    const html = renderToString(<Stub initialEntries={["/events/summit/register"]} />);
    expect(html).toContain("You are in the queue");
    expect(html).toMatch(/<p role="status"[^>]*>Your place: <!-- -->7<\/p>/);
    expect(html).toContain("Annual Summit");
    expect(html).toContain("this page moves on by itself when it is yours");
    expect(html).toMatch(/<form[^>]*action="\/events\/summit\/register" method="post"/);
    expect(html).toContain('<input type="hidden" name="intent" value="register"/>');
    expect(html).toContain(
      '<input type="hidden" name="attendeeName" value="Wanjiru &quot;Jiru&quot; Kamau"/>',
    );
    expect(html).toContain('<input type="hidden" name="queueNumber" value="42.signature"/>');
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Check my place<\/button>/);
  });
});
