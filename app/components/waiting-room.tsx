import { useEffect, useRef } from "react";
import { Form, useSubmit } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";

export type WaitingRoomState = {
  /** The visitor's place: how many people are ahead, plus one. */
  position: number;
  /** The signed number the re-post carries. */
  queueNumber: string;
  /** Everything the visitor posted, posted again unchanged. */
  fields: [string, string][];
  /** When the server answered (each answer schedules the next check). */
  answeredAt: number;
};

/**
 * The registration waiting room: the visitor's place, and the form they posted kept as hidden
 * fields. With JavaScript it posts itself again every `pollMs`; without, "Check my place" does.
 */
export function WaitingRoom({
  eventTitle,
  state,
  pollMs = 2000,
}: {
  eventTitle: string;
  state: WaitingRoomState;
  pollMs?: number;
}) {
  const form = useRef<HTMLFormElement>(null);
  const submit = useSubmit();
  // biome-ignore lint/correctness/useExhaustiveDependencies: each answer (answeredAt) schedules the next check
  useEffect(() => {
    const timer = window.setTimeout(() => {
      if (form.current) submit(form.current, { method: "post", preventScrollReset: true });
    }, pollMs);
    return () => window.clearTimeout(timer);
  }, [state.answeredAt, pollMs, submit]);
  return (
    <Card className="grid gap-4 p-6">
      <h2 className="text-xl font-semibold">You are in the queue</h2>
      <p>
        Many people are registering for {eventTitle} right now. Everyone is let in in turn, in the
        order they arrived; this page moves on by itself when it is yours.
      </p>
      <p role="status" className="text-2xl font-semibold">
        Your place: {state.position}
      </p>
      <p className="text-sm text-muted-foreground">
        Keep this page open: what you entered is kept and sent again when it is your turn.
      </p>
      <Form ref={form} method="post" className="grid gap-2">
        {state.fields.map(([name, value], i) => (
          <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="queueNumber" value={state.queueNumber} />
        <Button type="submit" variant="outline" className="justify-self-start">
          Check my place
        </Button>
      </Form>
    </Card>
  );
}
