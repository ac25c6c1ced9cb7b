/**
 * A webhook node's addresses at the top of its panel (docs/dashboard.md#workflow-editor), as n8n
 * shows them: the HTTP method, the production URL (runs the workflow while it is started) and the
 * test URL (taken while listening for test calls; docs/webhooks.md#capture), each with Copy.
 */
import { useId } from "react";
import { CopyButton } from "../../../ui/CopyButton";
import type { NodeJson } from "./model";

/** The URLs of webhook `node`, as the Workflow answer gives them (absent until saved). */
export function WebhookUrls(props: {
  node: NodeJson;
  url: string | undefined;
  testUrl: string | undefined;
  stopped: boolean;
}) {
  const method = typeof props.node.httpMethod === "string" ? props.node.httpMethod : "POST";
  if (!props.url || !props.testUrl) {
    return <p className="muted">Save the workflow to get this node's production and test URLs.</p>;
  }
  return (
    <div className="webhook-urls">
      <UrlRow label="Production URL" what="the production URL" method={method} url={props.url} />
      <UrlRow label="Test URL" what="the test URL" method={method} url={props.testUrl} />
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
  return (
    <div className="url-row">
      <label htmlFor={id}>{props.label}</label>
      <div className="url-line">
        <span className="url-method" title="HTTP method">
          {props.method}
        </span>
        <input id={id} readOnly value={props.url} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={props.url} what={props.what} />
      </div>
    </div>
  );
}
