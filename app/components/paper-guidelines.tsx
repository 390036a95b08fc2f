import { Link } from "~/components/link";

const GUIDELINES: Array<{ title: string; body: string }> = [
  {
    title: "Scope",
    body: "Original research, case studies, literature reviews and practice reports on information management: data governance, records and archives, privacy, data quality, analytics, AI ethics and digital transformation. Work from practitioners is as welcome as academic research.",
  },
  {
    title: "Title and abstract",
    body: "A specific title of no more than 20 words. An abstract of 150 to 300 words that states the question, the method, the main findings and why they matter to practitioners; it is shown on your paper's page and used for search.",
  },
  {
    title: "Authors",
    body: "The full name and affiliation of every author, and one corresponding author with an e-mail address. Every listed author has seen and approved the submission.",
  },
  {
    title: "Keywords",
    body: "Three to six keywords; they become the paper's tags and connect it to similar papers in the library.",
  },
  {
    title: "Manuscript",
    body: "One PDF (text-based, not scanned) of at most 10 MB, usually 3,000 to 8,000 words, with numbered headings, captioned figures and tables, and references in a consistent style such as APA 7.",
  },
  {
    title: "Originality and ethics",
    body: "The work is your own, not published or under review elsewhere, and cites its sources. Personal data is anonymised, permissions are held for third-party figures, and funding and conflicts of interest are disclosed.",
  },
  {
    title: "Review",
    body: "An editor checks scope and format within two weeks, then at least two reviewers assess the paper. You receive one decision: accepted, revisions requested, or declined, with the reviewers' comments. Most decisions arrive within eight weeks.",
  },
  {
    title: "After acceptance",
    body: "You keep the copyright. The paper is published here with its PDF, citation, BibTeX and RIS records, and listed in our RSS feed and for search engines such as Google Scholar.",
  },
];

/** The in-page submission guidelines that 'Review Guidelines' on /papers points to. */
export function PaperGuidelines({ hasOpenCall = false }: { hasOpenCall?: boolean }) {
  return (
    <section
      id="guidelines"
      aria-labelledby="guidelines-heading"
      className="mx-auto max-w-6xl scroll-mt-24 px-4 py-12"
    >
      <h2 id="guidelines-heading" className="text-2xl font-semibold">
        Submission Guidelines
      </h2>
      <p className="mt-2 max-w-3xl text-muted-foreground">
        What we look for in a paper, and what happens after you send it.
      </p>
      <ol className="mt-6 grid gap-4 md:grid-cols-2">
        {GUIDELINES.map((item, index) => (
          <li key={item.title} className="rounded-xl border border-border bg-card p-5">
            <h3 className="font-semibold">
              <span className="mr-2 text-primary">{index + 1}.</span>
              {item.title}
            </h3>
            <p className="mt-2 text-sm text-slate-700">{item.body}</p>
          </li>
        ))}
      </ol>
      {hasOpenCall ? (
        <p className="mt-6 text-sm text-slate-700">
          Ready?{" "}
          <a href="#open-calls" className="font-medium text-primary underline underline-offset-4">
            Choose an open call
          </a>
          , sign in and submit your paper; you can save a draft and finish it later.
        </p>
      ) : (
        <p className="mt-6 text-sm text-slate-700">
          No call for papers is open right now; new calls are listed on this page.{" "}
          <Link
            to="/contact?topic=paper-submission"
            className="font-medium text-primary underline underline-offset-4"
          >
            Ask us about publishing
          </Link>{" "}
          in the meantime.
        </p>
      )}
    </section>
  );
}
