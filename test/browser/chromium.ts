/**
 * Debian's chromium for the browser tests (never a Playwright download): its path, and a headless
 * launch that fails with instructions when it is not installed.
 */
import fs from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** `CHROMIUM_PATH`, or Debian's `/usr/bin/chromium`. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Launches headless chromium. @throws Error saying how to install it when it is missing */
export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install it with \`apt-get install -y chromium\`, ` +
        "or set CHROMIUM_PATH to a Chromium binary (this test never downloads browsers).",
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ["--no-sandbox"], headless: true });
}
