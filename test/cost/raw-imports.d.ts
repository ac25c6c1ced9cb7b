// Vite's `?raw` imports (a file's text), used to read docs/performance.md in tests.
declare module "*.md?raw" {
  const text: string;
  export default text;
}
