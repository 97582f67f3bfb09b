import { data } from "react-router";
import type { RouteTraits } from "~/domain/route-traits";

// Refuses every write: nothing to keep.
export const handle: RouteTraits = { offline: false };

// Any other path: thrown so the root error boundary renders
// '404 Page Not Found' with status 404.
export function loader() {
  throw data(null, { status: 404 });
}

export function action() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
