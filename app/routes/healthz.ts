import { sqlite } from "~/db/client.server";

// Fly's health check: the process answers and the database reads.
export function loader() {
  try {
    sqlite.prepare("SELECT 1").get();
    return new Response("ok", { headers: { "Cache-Control": "no-store" } });
  } catch {
    return new Response("database unavailable", { status: 503 });
  }
}
