import { Copy, Download, FileDown, Quote, Share2 } from "~/components/icons";
import { Button, buttonVariants } from "~/components/ui/button";
import { loadToasts } from "~/lib/notify";
import { cn } from "~/lib/utils";

// sonner is loaded on first use (loadToasts): rendering a paper page does not need it.
// Toasts use the neutral style: sonner's rich success colours fall short of 4.5:1 contrast.
async function notify(title: string, description?: string) {
  const { toast } = await loadToasts();
  toast(title, description ? { description } : undefined);
}

/** Copies `text`, while the click still counts as a user gesture; false where it cannot. */
function copyText(text: string) {
  return Promise.resolve()
    .then(() => navigator.clipboard.writeText(text)) // no clipboard API on plain-HTTP hosts
    .then(
      () => true,
      () => false,
    );
}

export function startedDownloadToast() {
  void notify("Download started");
}

/** Copies the citation (spec §8: 'Citation copied!'). */
export async function copyCitation(citation: string) {
  if (await copyText(citation)) await notify("Citation copied!");
  else await notify("Could not copy the citation", citation);
}

/** Web Share where the device has it, else the link goes to the clipboard (spec §8). */
export async function sharePaper({ title, url }: { title: string; url: string }) {
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title, url });
      return;
    } catch (error) {
      if ((error as Error).name === "AbortError") return; // the person closed the share sheet
    }
  }
  if (await copyText(url)) {
    await notify("Link copied!", "Paper link has been copied to your clipboard.");
  } else {
    await notify("Could not copy the link", url);
  }
}

// Outline buttons on the primary-coloured banner: white text and a white focus ring.
const onBanner =
  "border-white/70 bg-transparent text-white hover:bg-white/15 focus-visible:outline-white";

type Props = { title: string; slug: string; url: string; citation: string; hasPdf: boolean };

/** The buttons under a paper's title: Download PDF, Share, Cite, BibTeX, RIS (spec §2.7). */
export function PaperActions({ title, slug, url, citation, hasPdf }: Props) {
  return (
    <div className="flex flex-wrap gap-3">
      {hasPdf ? (
        <a
          href={`/papers/${slug}/pdf`}
          onClick={startedDownloadToast}
          className={cn(buttonVariants({ variant: "inverse" }), "focus-visible:outline-white")}
        >
          <Download aria-hidden />
          Download PDF
        </a>
      ) : null}
      <Button
        type="button"
        variant="outline"
        className={onBanner}
        onClick={() => sharePaper({ title, url })}
      >
        <Share2 aria-hidden />
        Share
      </Button>
      <Button
        type="button"
        variant="outline"
        className={onBanner}
        onClick={() => copyCitation(citation)}
      >
        <Quote aria-hidden />
        Cite
      </Button>
    </div>
  );
}

/** The citation with its copy button and the BibTeX / RIS downloads. */
export function PaperCitation({ slug, citation }: { slug: string; citation: string }) {
  const fileLink = cn(buttonVariants({ variant: "outline", size: "sm" }));
  return (
    <div>
      <p className="rounded-lg border border-border bg-muted p-4 text-slate-800">{citation}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button type="button" size="sm" onClick={() => copyCitation(citation)}>
          <Copy aria-hidden />
          Copy Citation
        </Button>
        <a href={`/papers/${slug}/citation.bib`} className={fileLink}>
          <FileDown aria-hidden />
          BibTeX
        </a>
        <a href={`/papers/${slug}/citation.ris`} className={fileLink}>
          <FileDown aria-hidden />
          RIS
        </a>
      </div>
    </div>
  );
}
