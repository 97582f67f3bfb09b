// The route table, written out to mirror SPEC.md §2 line by line.
import {
  type RouteConfig,
  index,
  layout,
  prefix,
  route,
} from "@react-router/dev/routes";

export default [
  // Public pages: these four ship no JavaScript (ruling 18).
  route("auth", "routes/auth/auth.tsx"),
  route("help/fees", "routes/help/fees.tsx"),

  // Protected screens inside the app shell (header + bottom navigation).
  layout("routes/app-layout.tsx", [index("routes/home.tsx")]),

  route("logout", "routes/auth/logout.tsx"),
  route("healthz", "routes/healthz.ts"),
  route("bench/bare", "routes/bench/bare.tsx"),

  // The JSON API (DESIGN.md §3, §3a).
  ...prefix("api", [
    route("user", "routes/api/user.ts"),
    route("login", "routes/api/login.ts"),
    route("register", "routes/api/register.ts"),
    route("logout", "routes/api/logout.ts"),
    route("*", "routes/api/not-found.ts"),
  ]),

  // Any other path: '404 Page Not Found'.
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
