import { databaseHealth } from "~/models/jobs/health.server";

// Fly's health check: the process answers and the database reads. Outside
// the primary region a lost replica is said ('replica unavailable') but not
// failed: the machine still serves, replaying its reads in the primary region.
export async function loader() {
  const health = await databaseHealth();
  if (health === "database unavailable")
    return new Response(health, {
      status: 503,
      headers: { "Cache-Control": "no-store", "Retry-After": "5" },
    });
  return new Response(health, { headers: { "Cache-Control": "no-store" } });
}
