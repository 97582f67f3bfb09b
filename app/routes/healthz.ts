import { databaseAnswers } from "~/models/jobs/health.server";

// Fly's health check: the process answers and the database reads.
export async function loader() {
  if (!(await databaseAnswers()))
    return new Response("database unavailable", {
      status: 503,
      headers: { "Cache-Control": "no-store", "Retry-After": "5" },
    });
  return new Response("ok", { headers: { "Cache-Control": "no-store" } });
}
