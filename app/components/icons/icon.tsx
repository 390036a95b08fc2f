import type { ReactElement, SVGProps } from "react";

export type IconProps = SVGProps<SVGSVGElement> & { size?: number | string };
export type IconComponent = ((props: IconProps) => ReactElement) & { displayName?: string };

/** Props that name the icon for assistive technology; without one the icon is decorative. */
function isLabelled(props: IconProps) {
  for (const key in props) {
    if (
      (key.startsWith("aria-") || key === "role" || key === "title") &&
      props[key as never] != null
    ) {
      return true;
    }
  }
  return false;
}

/**
 * A Lucide icon as one element whose shapes are a build-time string (see index.ts, written by `npm run icons`):
 * the same markup as lucide-react, but one element to render instead of an icon component, its
 * attribute builder and one element per shape (decision 0011).
 */
export function icon(name: string, classes: string, shapes: string): IconComponent {
  const markup = { __html: shapes };
  // biome-ignore lint/correctness/noComponentHookFactories: called once per icon, at module scope
  const Icon: IconComponent = ({ className, size = 24, ...props }) => (
    // The inner markup is constant path data from lucide, generated at build time.
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className ? `${classes} ${className}` : classes}
      aria-hidden={isLabelled(props) ? undefined : true}
      {...props}
      dangerouslySetInnerHTML={markup}
    />
  );
  Icon.displayName = name;
  return Icon;
}
