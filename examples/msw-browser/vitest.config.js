// Vitest browser mode in Chromium through Playwright, for users.test.js
// (MSW's setupWorker). Nothing in it is for user-management-client.
import { defineConfig } from "vitest/config";
import { playwright } from "@vitest/browser-playwright";

export default defineConfig({
  test: {
    include: ["users.test.js"],
    browser: {
      enabled: true,
      headless: true,
      // Debian's Chromium; without executablePath, Playwright's own.
      provider: playwright({
        launchOptions: {
          executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
          args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"],
        },
      }),
      instances: [{ browser: "chromium" }],
    },
  },
});
