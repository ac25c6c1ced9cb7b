// Types `exports` of "cloudflare:workers" in tests (as `wrangler types` would): the Worker's default
// export and its Durable Object classes. Kept out of src/ so the source never imports its own entry.
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("../src/index");
    durableNamespaces: "LinkLedger" | "WorkflowRunner" | "Conversation";
  }
}
