// Who issues the documents (decision 0083): legal name, KRA PIN and VAT status from configuration,
// with labelled demo values so a fresh install shows where they go without passing for real ones.
import { env } from "../env.server";

export const DEMO_SELLER_LEGAL_NAME = "Kongamano Network Ltd (demo legal name)";
export const DEMO_SELLER_KRA_PIN = "P000000000A";

export type Seller = {
  legalName: string;
  kraPin: string;
  /** The VAT percentage included in prices ("16"), or null when the seller is not VAT-registered. */
  vatRate: string | null;
};

export function sellerDetails(): Seller {
  const config = env();
  return {
    legalName: config.SELLER_LEGAL_NAME ?? DEMO_SELLER_LEGAL_NAME,
    kraPin: config.SELLER_KRA_PIN ?? `${DEMO_SELLER_KRA_PIN} (demo PIN)`,
    vatRate: config.VAT_RATE ?? null,
  };
}
