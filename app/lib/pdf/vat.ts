// VAT inside VAT-inclusive prices (decision 0083): the price a buyer pays is the gross; the VAT in
// it is gross × rate / (100 + rate), rounded half up to the minor unit, and net = gross − VAT, so
// the three lines always add up. Integer arithmetic on the rate's decimal text, never a float.

export type VatSplit = { netMinor: number; vatMinor: number; grossMinor: number };

/** 1000000 KES cents at "16" % → VAT 137931, net 862069. `ratePercent`: "16", "12.5", "7.25". */
export function vatSplit(grossMinor: number, ratePercent: string): VatSplit {
  if (!Number.isSafeInteger(grossMinor))
    throw new Error(`Not an amount in minor units: ${grossMinor}`);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(ratePercent);
  if (!match) throw new Error(`Not a VAT rate: ${JSON.stringify(ratePercent)}`);
  const decimals = match[2] ?? "";
  const rate = BigInt(`${match[1]}${decimals}`); // the percentage × 10^decimals
  const hundred = 100n * 10n ** BigInt(decimals.length);
  const gross = BigInt(grossMinor);
  const top = (gross < 0n ? -gross : gross) * rate;
  const bottom = hundred + rate;
  const magnitude = (top * 2n + bottom) / (2n * bottom);
  const vatMinor = Number(gross < 0n ? -magnitude : magnitude);
  return { netMinor: grossMinor - vatMinor, vatMinor, grossMinor };
}
