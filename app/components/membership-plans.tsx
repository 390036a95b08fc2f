import { Check } from "~/components/icons";
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
import { formatPriceTag } from "~/lib/money";
import { cn } from "~/lib/utils";
import { MEMBERSHIP_CURRENCY, PLAN_PRICE_MINOR } from "~/models/membership/plans";
import type { MembershipPlan } from "./membership-content";

/** Where 'Start Membership' leads: the application for the plan (signing in first if needed). */
export function startMembershipHref(plan: MembershipPlan["id"]) {
  return `/membership/apply/${plan}`;
}

/** The three plans of spec §9, priced per year. */
export function MembershipPlans({ plans }: { plans: readonly MembershipPlan[] }) {
  return (
    <ul className="grid gap-6 lg:grid-cols-3">
      {plans.map((plan) => {
        const popular = Boolean(plan.highlight);
        return (
          <li key={plan.id}>
            <Card className={cn("relative h-full", popular && "border-2 border-primary shadow-lg")}>
              {plan.highlight ? (
                <Badge className="absolute -top-3 left-1/2 -translate-x-1/2">
                  {plan.highlight}
                </Badge>
              ) : null}
              <CardHeader>
                <CardTitle id={`plan-${plan.id}`}>{plan.name}</CardTitle>
                <CardDescription>{plan.description}</CardDescription>
                <p className="mt-3">
                  <span className="text-4xl font-bold">
                    {/* The price charged on application, so the page never shows another. */}
                    {formatPriceTag(PLAN_PRICE_MINOR[plan.id], MEMBERSHIP_CURRENCY)}
                  </span>
                  <span className="text-muted-foreground">/year</span>
                </p>
                {plan.note ? (
                  <p className="text-sm font-medium text-accent-foreground">{plan.note}</p>
                ) : null}
              </CardHeader>
              <CardContent>
                <ul className="grid gap-2 text-sm">
                  {plan.features.map((feature) => (
                    <li key={feature} className="flex items-start gap-2">
                      <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-success" />
                      {feature}
                    </li>
                  ))}
                </ul>
              </CardContent>
              <CardFooter>
                <Link
                  to={startMembershipHref(plan.id)}
                  className={cn(
                    buttonVariants({ variant: popular ? "default" : "outline", size: "lg" }),
                    "w-full",
                  )}
                  aria-label={`Start Membership: ${plan.name} plan`}
                >
                  Start Membership
                </Link>
              </CardFooter>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}
