// Server output with the Node.js adapter (standalone: dist/server/entry.mjs
// is the server). Nothing here is for user-management-client.
import node from "@astrojs/node";
import { defineConfig } from "astro/config";

export default defineConfig({
  output: "server",
  adapter: node({ mode: "standalone" }),
});
