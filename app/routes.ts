import { index, layout, prefix, type RouteConfig, route } from "@react-router/dev/routes";

// The whole URL map of Kongamano (spec §2.1). Resource routes (no UI) live under routes/api.
export default [
  // Public site
  index("routes/public/home.tsx"),
  route("events", "routes/public/events/index.tsx"),
  route("events.ics", "routes/api/events-feed-ics.ts"),
  route("events/rss.xml", "routes/api/events-rss.ts"),
  route("events/:slug", "routes/public/events/detail.tsx"),
  route("events/:slug/calendar.ics", "routes/api/event-ics.ts"),
  route("papers", "routes/public/papers/index.tsx"),
  route("papers/rss.xml", "routes/api/papers-rss.ts"),
  route("papers/bulk-download.zip", "routes/api/papers-bulk-zip.ts"),
  route("papers/:slug", "routes/public/papers/detail.tsx"),
  route("papers/:slug/pdf", "routes/api/paper-pdf.ts"),
  route("papers/:slug/citation.bib", "routes/api/paper-bibtex.ts"),
  route("papers/:slug/citation.ris", "routes/api/paper-ris.ts"),
  route("membership", "routes/public/membership.tsx"),
  route("about", "routes/public/about.tsx"),
  route("offices", "routes/public/offices.tsx"),
  route("contact", "routes/public/contact.tsx"),
  route("advertising", "routes/public/advertising.tsx"),
  route("privacy", "routes/public/privacy.tsx"),
  route("terms", "routes/public/terms.tsx"),
  route("sitemap.xml", "routes/api/sitemap.ts"),
  route("robots.txt", "routes/api/robots.ts"),

  // Accounts
  route("auth", "routes/auth/auth.tsx"),
  route("auth/reset-password", "routes/auth/reset-password.tsx"),
  route("auth/two-factor", "routes/auth/two-factor.tsx"),
  route("auth/sign-out", "routes/auth/sign-out.ts"),
  route("invite/:token", "routes/auth/invite.tsx"),
  route("profile", "routes/account/profile.tsx"),
  route("api/auth/*", "routes/api/auth.ts"),

  // Files from storage (uploaded images and PDFs)
  route("uploads/*", "routes/api/uploads-file.ts"),

  // Back office (editor or admin; admin-only where spec §6 says so)
  ...prefix("admin", [
    layout("routes/admin/layout.tsx", [
      index("routes/admin/dashboard.tsx"),
      route("events", "routes/admin/events/index.tsx"),
      route("events/new", "routes/admin/events/new.tsx"),
      route("events/:id/edit", "routes/admin/events/edit.tsx"),
      route("event-categories", "routes/admin/event-categories/index.tsx"),
      route("event-categories/new", "routes/admin/event-categories/new.tsx"),
      route("event-categories/:id/edit", "routes/admin/event-categories/edit.tsx"),
      route("event-types/new", "routes/admin/event-types/new.tsx"),
      route("event-types/:id/edit", "routes/admin/event-types/edit.tsx"),
      route("papers", "routes/admin/papers/index.tsx"),
      route("papers/new", "routes/admin/papers/new.tsx"),
      route("papers/:id/edit", "routes/admin/papers/edit.tsx"),
      route("speakers", "routes/admin/speakers/index.tsx"),
      route("speakers/new", "routes/admin/speakers/new.tsx"),
      route("speakers/:id/edit", "routes/admin/speakers/edit.tsx"),
      route("sponsors", "routes/admin/sponsors/index.tsx"),
      route("sponsors/new", "routes/admin/sponsors/new.tsx"),
      route("sponsors/:id/edit", "routes/admin/sponsors/edit.tsx"),
      route("offices", "routes/admin/offices/index.tsx"),
      route("offices/new", "routes/admin/offices/new.tsx"),
      route("offices/:id/edit", "routes/admin/offices/edit.tsx"),
      route("messages", "routes/admin/messages.tsx"),
      route("security", "routes/admin/security.tsx"),
      route("users", "routes/admin/users.tsx"),
    ]),
    route("uploads", "routes/api/admin-upload.ts"),
    route("security/activity.csv", "routes/admin/security-activity-csv.ts"),
  ]),

  route("*", "routes/public/not-found.tsx"),
] satisfies RouteConfig;
