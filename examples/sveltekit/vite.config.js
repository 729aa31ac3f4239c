// SvelteKit 3 takes its options here (it refuses a svelte.config.js):
// adapter-node builds a Node.js server into build/. Nothing here is for
// user-management-client.
import adapter from "@sveltejs/adapter-node";
import { sveltekit } from "@sveltejs/kit/vite";

export default {
  plugins: [sveltekit({ adapter: adapter() })],
};
