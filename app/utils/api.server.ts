// The /api door moved beside the page door: app/framework/api.server.ts.
// This one re-export stays only for app/pipeline/idempotency-guard.server.ts,
// which the route-traits change (issue 50, item 2) is reworking; point that
// import at ~/framework/api.server and delete this file when it lands.
// eslint-disable-next-line no-restricted-imports -- the re-export above
export { errorToResponse } from "~/framework/api.server";
