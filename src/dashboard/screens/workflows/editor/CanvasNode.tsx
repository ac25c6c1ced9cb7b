/**
 * A node on the workflow canvas (docs/dashboard.md#workflow-editor): its type, label and key,
 * how many problems it has (the API's from the last save and its schema's now), an input handle
 * unless it is a trigger, and one output, or a condition's two: true and false.
 */
import { Handle, type NodeProps, Position } from "@xyflow/react";
import { memo, useMemo } from "react";
import { DEFAULT_NAMES, isTriggerNode, type NodeType } from "../../../../workflows/nodes";
import { checkNode, mergeProblems } from "./fields";
import type { CanvasNode } from "./model";
import { NodeRunBadge } from "./NodeRunBadge";

/** Whether nodes of `type` start executions (and so take no input). */
export const isTrigger = (type: NodeType) => isTriggerNode({ type });

/** The canvas's one node type, registered as `workflow` (model.ts). */
export const WorkflowNodeView = memo(function WorkflowNodeView({ data }: NodeProps<CanvasNode>) {
  const { node, problems } = data;
  const count = useMemo(() => mergeProblems(problems, checkNode(node)).length, [problems, node]);
  return (
    <div className={`wf-node wf-${node.type}${count > 0 ? " has-problems" : ""}`}>
      {isTrigger(node.type) ? null : <Handle type="target" position={Position.Left} />}
      <span className="wf-node-type">
        {DEFAULT_NAMES[node.type]}
        {isTrigger(node.type) ? " · trigger" : ""}
      </span>
      <strong className="wf-node-name">{node.name ?? DEFAULT_NAMES[node.type]}</strong>
      <code className="wf-node-key">{node.key}</code>
      <NodeRunBadge nodeKey={node.key} />
      {count > 0 ? (
        <span className="wf-node-problems">
          {count} {count === 1 ? "problem" : "problems"}
        </span>
      ) : null}
      {node.type === "condition" ? (
        <>
          <Handle type="source" id="true" position={Position.Right} className="wf-handle-true" />
          <span className="wf-branch wf-branch-true" aria-hidden="true">
            true
          </span>
          <Handle type="source" id="false" position={Position.Right} className="wf-handle-false" />
          <span className="wf-branch wf-branch-false" aria-hidden="true">
            false
          </span>
        </>
      ) : (
        <Handle type="source" position={Position.Right} />
      )}
    </div>
  );
});
