// A route handler on the Node.js runtime (Next's default): GET /api/count.
import { apiUrl, summary } from "../../summary.js";

export const dynamic = "force-dynamic";

export async function GET() {
  return Response.json(await summary(apiUrl()));
}
