import { ORGANISATION_NAME } from "~/lib/constants";
import { env } from "~/lib/env.server";
import { PUBLIC_CACHE_CONTROL } from "~/lib/site-content";
import { escapeXml } from "~/lib/xml";
import { listLatestPublishedPapers } from "~/models/papers/queries.server";

const FEED_SIZE = 20;

const element = (name: string, value: string) => `<${name}>${escapeXml(value)}</${name}>`;

// RSS 2.0 feed of the newest published papers (design §4).
export async function loader() {
  const origin = new URL(env().BASE_URL).origin;
  const papers = await listLatestPublishedPapers(FEED_SIZE);
  const items = papers.map((paper) => {
    const link = `${origin}/papers/${paper.slug}`;
    const date = paper.publishedDate ? new Date(paper.publishedDate) : new Date(paper.createdAt);
    return [
      "<item>",
      element("title", paper.title),
      element("link", link),
      `<guid isPermaLink="true">${escapeXml(link)}</guid>`,
      element("pubDate", date.toUTCString()),
      ...paper.authors.map((author) => element("dc:creator", author)),
      ...(paper.abstract ? [element("description", paper.abstract)] : []),
      ...(paper.category ? [element("category", paper.category)] : []),
      ...(paper.tags ?? []).map((tag) => element("category", tag)),
      "</item>",
    ].join("");
  });
  const newest = papers[0] ? new Date(papers[0].createdAt) : new Date(0);
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "<channel>",
    element("title", `${ORGANISATION_NAME} Research Papers`),
    element("link", `${origin}/papers`),
    element(
      "description",
      "The newest research papers published in the Kongamano library on information management, data governance and digital transformation.",
    ),
    element("language", "en"),
    element("lastBuildDate", newest.toUTCString()),
    `<atom:link href="${escapeXml(`${origin}/papers/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
    ...items,
    "</channel>",
    "</rss>",
  ].join("\n");
  return new Response(xml, {
    headers: {
      "Content-Type": "application/rss+xml; charset=utf-8",
      "Cache-Control": PUBLIC_CACHE_CONTROL,
    },
  });
}
