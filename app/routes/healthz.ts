import { databaseAnswers } from "~/models/jobs/health.server";

// Fly's health check: the process answers and the database reads.
export function loader() {
  if (!databaseAnswers())
    return new Response("database unavailable", { status: 503 });
  return new Response("ok", { headers: { "Cache-Control": "no-store" } });
}
