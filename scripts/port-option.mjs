// The port `npm run dev` listens on: `--port 8790`, `--port=8790`, else PORT, else 8787. Pure (no
// Node APIs), so the test suite can check it in workerd (test/platform/port-option.test.ts).

/**
 * @param {readonly string[]} argv the arguments after the script's name
 * @param {string | undefined} envPort the PORT environment variable
 * @param {number} fallback the port when neither is given
 * @returns {number} the port
 * @throws {Error} when the value given is not a port (1 to 65535)
 */
export function portOption(argv, envPort, fallback) {
  const at = argv.findIndex((arg) => arg === "--port" || arg.startsWith("--port="));
  const text = at === -1 ? envPort : (argv[at]?.split("=")[1] ?? argv[at + 1]);
  if (text === undefined || text === "") return fallback;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new Error(`--port ${text} is not a port (1 to 65535).`);
  }
  return port;
}
