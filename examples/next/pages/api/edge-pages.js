// An API route of the Pages Router on the Edge runtime: GET /api/edge-pages.
// It is here because `next build --webpack` of Next.js 16.4.6 fails on any
// App Router route handler on the Edge runtime, whatever it imports
// (ENOENT …/route_client-reference-manifest.js), so under webpack this is
// the Edge route the check can run. The package's `edge-light` entry
// serves it as it serves app/api/edge.
import { apiUrl, summary } from "../../app/summary.js";

export const config = { runtime: "edge" };

export default async function handler() {
  return Response.json(await summary(apiUrl()));
}
