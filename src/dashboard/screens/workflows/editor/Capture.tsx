/**
 * Test calls of a webhook node (docs/dashboard.md#workflow-editor, docs/webhooks.md#capture):
 * "Listen for test calls" arms capture on the node's test URL; the calls it takes run nothing,
 * are listed here, and their fields are offered in the templates of the nodes after it.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { api, unwrap } from "../../../api";
import { ErrorNote, When } from "../../../ui/feedback";
import { samplesQuery } from "./queries";

const ARMING = { count: 5, ttlSeconds: 600 };

/** Capture for webhook node `nodeKey` of workflow `workflowId` (Owners and Admins). */
export function Capture({ workflowId, nodeKey }: { workflowId: string; nodeKey: string }) {
  const id = useId();
  const arm = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/v1/manage/workflows/{id}/nodes/{key}/capture", {
          params: { path: { id: workflowId, key: nodeKey } },
          body: ARMING,
        }),
      ),
  });
  const armed = arm.data && Date.parse(arm.data.expiresAt) > Date.now() ? arm.data : undefined;
  const samples = useQuery(samplesQuery(workflowId, nodeKey, armed !== undefined));
  const list = samples.data?.data ?? [];
  return (
    <section className="capture" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Test calls</h3>
      <p className="muted">
        Calls to the test URL run nothing, even while the workflow is stopped; their fields are
        offered in the templates of the nodes after this one.
      </p>
      <button type="button" disabled={arm.isPending} onClick={() => arm.mutate()}>
        Listen for test calls
      </button>
      {arm.isError ? <ErrorNote error={arm.error} /> : null}
      {armed ? (
        <p className="muted">
          The test URL (at the top of this panel) takes the next {ARMING.count} calls until{" "}
          <When iso={armed.expiresAt} />.
        </p>
      ) : null}
      <p role="status">
        {list.length === 0
          ? "No test calls captured."
          : `${list.length} test ${list.length === 1 ? "call" : "calls"} captured.`}
      </p>
      {list.map((sample) => (
        <details key={sample.id}>
          <summary>
            Call of <When iso={sample.capturedAt} />
          </summary>
          <pre className="json">{JSON.stringify(sample.output, null, 2)}</pre>
        </details>
      ))}
    </section>
  );
}
