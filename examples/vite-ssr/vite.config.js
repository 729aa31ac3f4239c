// A server bundle as Nuxt (Nitro), SvelteKit's and Astro's bundling adapters
// make it: `vite build` with the SSR entry and every dependency inlined
// (`ssr.noExternal: true`), so dist/ runs on its own, without node_modules.
// Nothing here is for user-management-client.
export default {
  build: { ssr: "src/server.js", outDir: "dist", emptyOutDir: true },
  ssr: { noExternal: true },
};
