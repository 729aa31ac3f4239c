// Nothing here is for user-management-client.
export default defineNuxtConfig({
  compatibilityDate: "2026-11-01",
  telemetry: false,
  devtools: { enabled: false },
});
