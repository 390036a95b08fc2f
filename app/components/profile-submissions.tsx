import { Link } from "~/components/link";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";

/** "My submissions" on the profile: where the person's papers sent to calls are followed. */
export function ProfileSubmissions() {
  return (
    <Card id="submissions" className="grid gap-3 p-6">
      <h2 className="text-xl font-semibold">My submissions</h2>
      <p className="text-sm text-muted-foreground">
        Papers you sent (or are drafting) for our calls for papers, with their status, history and
        the editors' decisions.
      </p>
      <div>
        <Link to="/profile/submissions" className={buttonVariants({ variant: "outline" })}>
          View my submissions
        </Link>
      </div>
    </Card>
  );
}
