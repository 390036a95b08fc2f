import { Share2 } from "~/components/icons";
import { loadToasts } from "~/lib/notify";
import { Button } from "./ui/button";

/** 'Share Event': the Web Share API where there is one, else the link is copied (spec §8). */
export function EventShareButton({ title }: { title: string }) {
  async function share() {
    const url = `${window.location.origin}${window.location.pathname}`;
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        if ((error as Error).name === "AbortError") return; // the visitor closed the share sheet
      }
    }
    // Copy first, while the click still counts as a user gesture; then load sonner on demand
    // (it is not needed to render the page).
    const copied = await Promise.resolve()
      .then(() => navigator.clipboard.writeText(url)) // no clipboard API on plain-HTTP hosts
      .then(
        () => true,
        () => false,
      );
    const { toast } = await loadToasts();
    if (copied) {
      // Neutral style: sonner's rich success colours fall short of 4.5:1 contrast.
      toast("Link copied!", { description: "Event link has been copied to your clipboard." });
    } else {
      toast("Could not copy the link", { description: url });
    }
  }
  return (
    <Button type="button" variant="outline" className="w-full" onClick={share}>
      <Share2 aria-hidden />
      Share Event
    </Button>
  );
}
