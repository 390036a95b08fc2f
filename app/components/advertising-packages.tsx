import { Check, FileText, Mail, Monitor, Smartphone } from "~/components/icons";
import { Link } from "~/components/link";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from "~/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { contactHref } from "~/lib/site-content";
import { cn } from "~/lib/utils";
import {
  type AdType,
  adPriceLabel,
  type SponsorshipTier,
  tierPriceLabel,
} from "./advertising-content";

export const PACKAGE_TABS = { sponsorship: "sponsorship", digital: "digital" } as const;
export type PackageTab = keyof typeof PACKAGE_TABS;

const AD_ICONS: Record<AdType["id"], typeof Monitor> = {
  "website-banner": Monitor,
  newsletter: Mail,
  "conference-app": Smartphone,
  "paper-sponsorship": FileText,
};

/**
 * 'Event Sponsorship' (default) and 'Digital Advertising' tabs. Both panels are rendered on the
 * server (the inactive one hidden); the tabs are links to `?tab=…`, so they work before (or
 * without) JavaScript.
 */
export function AdvertisingPackages({
  tiers,
  adTypes,
  initialTab,
}: {
  tiers: readonly SponsorshipTier[];
  adTypes: readonly AdType[];
  initialTab: PackageTab;
}) {
  return (
    <Tabs defaultValue={initialTab} className="grid gap-8">
      <div className="grid justify-items-center gap-2">
        <TabsList className="h-auto w-full max-w-md [&>*]:whitespace-normal">
          {/* Links keep the tab in the URL: a press before the scripts have loaded opens it too. */}
          <TabsTrigger value="sponsorship" asChild>
            <Link to="?tab=sponsorship#packages" replace preventScrollReset>
              Event Sponsorship
            </Link>
          </TabsTrigger>
          <TabsTrigger value="digital" asChild>
            <Link to="?tab=digital#packages" replace preventScrollReset>
              Digital Advertising
            </Link>
          </TabsTrigger>
        </TabsList>
      </div>

      <TabsContent value="sponsorship" forceMount className="data-[state=inactive]:hidden">
        <ul className="grid gap-6 md:grid-cols-2 xl:grid-cols-4">
          {tiers.map((tier) => (
            <li key={tier.id}>
              <Card
                className={cn(
                  "relative h-full",
                  tier.popular && "border-2 border-primary shadow-lg",
                )}
              >
                {tier.popular ? (
                  <Badge className="absolute -top-3 left-1/2 -translate-x-1/2">Most Popular</Badge>
                ) : null}
                <CardHeader>
                  <CardTitle>{tier.name}</CardTitle>
                  <p>
                    <span className="text-3xl font-bold">{tierPriceLabel(tier)}</span>
                    <span className="text-muted-foreground"> per event</span>
                  </p>
                  <CardDescription>{tier.description}</CardDescription>
                </CardHeader>
                <CardContent>
                  <ul className="grid gap-2 text-sm">
                    {tier.features.map((feature) => (
                      <li key={feature} className="flex items-start gap-2">
                        <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-success" />
                        {feature}
                      </li>
                    ))}
                  </ul>
                </CardContent>
                <CardFooter>
                  <Link
                    to={contactHref(`sponsorship-${tier.id}`)}
                    className={cn(
                      buttonVariants({ variant: tier.popular ? "default" : "outline" }),
                      "w-full",
                    )}
                    aria-label={`Get Started with ${tier.name} sponsorship`}
                  >
                    Get Started
                  </Link>
                </CardFooter>
              </Card>
            </li>
          ))}
        </ul>
      </TabsContent>

      <TabsContent value="digital" forceMount className="data-[state=inactive]:hidden">
        <ul className="grid gap-6 md:grid-cols-2">
          {adTypes.map((ad) => {
            const Icon = AD_ICONS[ad.id];
            return (
              <li key={ad.id}>
                <Card className="h-full">
                  <CardHeader>
                    <div className="flex items-start justify-between gap-4">
                      <CardTitle className="flex items-center gap-2">
                        <Icon aria-hidden className="size-5 text-primary" />
                        {ad.name}
                      </CardTitle>
                      <span className="text-right font-semibold text-primary">
                        {adPriceLabel(ad)}
                      </span>
                    </div>
                    <CardDescription>{ad.description}</CardDescription>
                  </CardHeader>
                  <CardContent className="grid gap-3 text-sm">
                    <p>
                      <span className="font-medium">Reach:</span> {ad.reach}
                    </p>
                    {ad.formats ? (
                      <p>
                        <span className="font-medium">Formats:</span> {ad.formats.join(", ")}
                      </p>
                    ) : null}
                    <ul className="grid gap-2">
                      {ad.features.map((feature) => (
                        <li key={feature} className="flex items-start gap-2">
                          <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-success" />
                          {feature}
                        </li>
                      ))}
                    </ul>
                  </CardContent>
                  <CardFooter>
                    <Link
                      to={contactHref(`advertising-${ad.id}`)}
                      className={buttonVariants({ variant: "outline" })}
                      aria-label={`Learn More about ${ad.name}`}
                    >
                      Learn More
                    </Link>
                  </CardFooter>
                </Card>
              </li>
            );
          })}
        </ul>
      </TabsContent>
    </Tabs>
  );
}

/** 'Our Audience': a bar per sector with its share of members (spec §9). */
export function AudienceBars({
  breakdown,
}: {
  breakdown: readonly { sector: string; percent: number }[];
}) {
  return (
    <ul className="grid gap-4">
      {breakdown.map(({ sector, percent }) => (
        <li key={sector} className="grid gap-1.5">
          <div className="flex justify-between text-sm">
            <span className="font-medium">{sector}</span>
            <span className="text-muted-foreground">{percent}%</span>
          </div>
          <div aria-hidden className="h-2.5 overflow-hidden rounded-full bg-muted">
            <div className="h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}
