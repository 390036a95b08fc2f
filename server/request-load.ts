/**
 * How many requests this process is answering through the app (page-cache hits and static files
 * are not counted): the job worker steps back while the site is busy, so mails, invoices and QR
 * codes never take the processor from a registration rush (issue 33 item 5, decision 0115).
 */
import type { NextFunction, Request, Response } from "express";

let inFlight = 0;

/** From this many requests at once the site counts as busy. */
export const BUSY_REQUESTS = 10;

export function countRequest(_req: Request, res: Response, next: NextFunction) {
  inFlight++;
  let counted = true;
  const done = () => {
    if (!counted) return;
    counted = false;
    inFlight--;
  };
  res.once("finish", done);
  res.once("close", done);
  next();
}

export function siteIsBusy() {
  return inFlight >= BUSY_REQUESTS;
}
