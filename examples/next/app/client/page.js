// A page whose calls run in the browser: the server only passes the API's
// base URL to the client component, which calls the API after hydration.
import { apiUrl } from "../summary.js";
import ClientSummary from "./client-summary.js";

export const dynamic = "force-dynamic";

export default function ClientPage() {
  return (
    <main>
      <h1>Users, from the browser</h1>
      <ClientSummary baseUrl={apiUrl()} />
    </main>
  );
}
