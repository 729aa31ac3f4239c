// A route handler on the Edge runtime (as Vercel Edge Functions run it):
// GET /api/edge. The package's `edge-light` entry serves it.
import { apiUrl, summary } from "../../summary.js";

export const runtime = "edge";
export const dynamic = "force-dynamic";

export async function GET() {
  return Response.json(await summary(apiUrl()));
}
