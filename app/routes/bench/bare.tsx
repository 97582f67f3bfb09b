import { data } from "react-router";
import { benchBareOn } from "~/utils/env-settings.server";

// The yardstick for `npm run bench`: a bare hydrated React Router page served
// by the same server in the same run. In the route table only of a build made
// with BENCH_BARE=1 (app/routes.ts), and even then 404 unless the server runs
// with BENCH_BARE=1.
export function loader() {
  if (!benchBareOn()) throw data(null, { status: 404 });
  return { now: Date.now() };
}

export default function Bare() {
  return (
    <main>
      <h1>Bare page</h1>
    </main>
  );
}
