/**
 * A webhook node's addresses at the top of its panel (docs/dashboard.md#workflow-editor), as n8n
 * shows them: the HTTP method, the production URL (runs the workflow while it is started) and the
 * test URL (taken while listening for test calls; docs/webhooks.md#capture), each with Copy.
 */
import { useId, useState } from "react";
import type { NodeJson } from "./model";

/** The test URL of production URL `url`: `/webhooks/<ws>/<wf>/<key>` under `/webhook-test/`. */
export function testUrlOf(url: string): string {
  const parts = url.split("/");
  // The last three parts are the workspace, the workflow and the node; before them, "webhooks".
  parts.splice(-4, 1, "webhook-test");
  return parts.join("/");
}

/** The URLs of webhook `node` (`url` its production URL; absent until saved). */
export function WebhookUrls(props: { node: NodeJson; url: string | undefined; stopped: boolean }) {
  const method = typeof props.node.httpMethod === "string" ? props.node.httpMethod : "POST";
  if (!props.url) {
    return <p className="muted">Save the workflow to get this node's production and test URLs.</p>;
  }
  return (
    <div className="webhook-urls">
      <UrlRow label="Production URL" what="the production URL" method={method} url={props.url} />
      <UrlRow label="Test URL" what="the test URL" method={method} url={testUrlOf(props.url)} />
      {props.stopped ? (
        <p className="muted">
          The workflow is stopped: the production URL answers 404 until you start it.
        </p>
      ) : null}
    </div>
  );
}

function UrlRow(props: { label: string; what: string; method: string; url: string }) {
  const id = useId();
  const [said, setSaid] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.url);
      setSaid("Copied.");
    } catch {
      // A browser without clipboard access: the field can still be selected and copied.
      setSaid("Could not copy; select the text and copy it yourself.");
    }
  };
  return (
    <div className="url-row">
      <label htmlFor={id}>{props.label}</label>
      <div className="url-line">
        <span className="url-method" title="HTTP method">
          {props.method}
        </span>
        <input id={id} readOnly value={props.url} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={copy}>
          Copy<span className="visually-hidden"> {props.what}</span>
        </button>
      </div>
      <span role="status" className="muted">
        {said}
      </span>
    </div>
  );
}
