// Vite's `?raw` imports (a file's text), used to read docs/performance.md and wrangler.toml in tests.
declare module "*.md?raw" {
  const text: string;
  export default text;
}
declare module "*.toml?raw" {
  const text: string;
  export default text;
}
