// The same tests (users.test.js) in each of Vitest's environments: node,
// jsdom, happy-dom, and browser mode in Chromium through Playwright. None
// of it is configuration for user-management-client: a plain import works
// in each. Against USERS_API_URL (default http://127.0.0.1:8080, `make demo`).
import { defineConfig } from "vitest/config";
import { playwright } from "@vitest/browser-playwright";

const environment = (name) => ({
  extends: true,
  test: { name, environment: name, provide: { environment: name } },
});

export default defineConfig({
  test: {
    include: ["users.test.js"],
    // The server's own numbers, read with Node's fetch before the tests.
    globalSetup: ["./truth.js"],
    projects: [
      environment("node"),
      environment("jsdom"),
      environment("happy-dom"),
      {
        extends: true,
        test: {
          name: "browser",
          provide: { environment: "browser" },
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
      },
    ],
  },
});
