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

  // The JSON API (DESIGN.md §3, §3a).
  ...prefix("api", [
    route("user", "routes/api/user.ts"),
    route("login", "routes/api/login.ts"),
    route("register", "routes/api/register.ts"),
    route("logout", "routes/api/logout.ts"),
    // --- Bets (issue 3) ---
    route("bets", "routes/api/bets/index.ts"),
    route("bets/:id", "routes/api/bets/bet.ts"),
    route("bets/code/:code", "routes/api/bets/code.ts"),
    route("bets/:id/join", "routes/api/bets/join.ts"),
    route("user/bets/:kind", "routes/api/bets/user-bets.ts"),
    route("users/:id", "routes/api/users-id.ts"),
    // --- end Bets ---
    route("*", "routes/api/not-found.ts"),
  ]),

  // Any other path: '404 Page Not Found'.
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
