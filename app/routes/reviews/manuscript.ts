import { data } from "react-router";
import { logger } from "~/lib/logger.server";
import { anonymiseManuscript, reviewerCopyResponse } from "~/lib/pdf/manuscript.server";
import { requireUser } from "~/lib/permissions.server";
import { discardStored, readStored, storeManuscript } from "~/models/cfp/manuscripts.server";
import { manuscriptForReviewer, setReviewerCopyKey } from "~/models/cfp/queries.server";
import type { Route } from "./+types/manuscript";

// A round's manuscript as its reviewer downloads it (issue 32 item 4, decision 0109): always the
// reviewer copy, without document information or XMP metadata, named submission-<id>.pdf. The
// copy is made on the first download and kept (a second reviewer gets the same file).
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const round = Number(params.round);
  const found = await manuscriptForReviewer(user.id, params.assignmentId, round);
  if (!found?.manuscriptKey) throw data({ message: "Manuscript not found" }, { status: 404 });
  const copy = found.reviewerCopyKey ? await readStored(found.reviewerCopyKey) : null;
  if (copy) return reviewerCopyResponse(copy, found.versionId);

  const original = await readStored(found.manuscriptKey);
  if (!original) throw data({ message: "Manuscript not found" }, { status: 404 });
  const stripped = await anonymiseManuscript(original).catch((error: unknown) => {
    // Never the original instead: a reviewer would see what the copy exists to hide.
    logger.error({ err: error, versionId: found.versionId }, "reviewer copy failed");
    throw data({ message: "The manuscript cannot be prepared for review" }, { status: 503 });
  });
  const key = await storeManuscript(stripped);
  const kept = await setReviewerCopyKey(found.versionId, key);
  // Another download made it first: keep theirs, drop ours.
  if (kept !== key) await discardStored(key);
  return reviewerCopyResponse(stripped, found.versionId);
}
