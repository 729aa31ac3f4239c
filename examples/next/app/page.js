// A server component: the package runs on the server (Node.js runtime) for
// every request, and the page arrives with the numbers in its HTML.
import { apiUrl, summary } from "./summary.js";

export const dynamic = "force-dynamic";

export default async function Home() {
  const s = await summary(apiUrl());
  return (
    <main>
      <h1>Users</h1>
      <p>
        Active users: <output id="active">{s.totalActive}</output>
      </p>
      <pre id="summary">{JSON.stringify(s)}</pre>
    </main>
  );
}
