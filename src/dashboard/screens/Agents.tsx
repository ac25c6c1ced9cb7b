/** Agents (docs/dashboard.md#screens): the workspace's agents with their mode and parameters. */
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api";
import { ErrorNote, Loading, When } from "../ui/feedback";

export function Agents() {
  const agents = useQuery({
    queryKey: ["agents"],
    queryFn: () => unwrap(api.GET("/v1/manage/agents")),
  });
  return (
    <section aria-labelledby="agents-title">
      <h1 id="agents-title" tabIndex={-1}>
        Agents
      </h1>
      {agents.isPending ? <Loading what="agents" /> : null}
      {agents.isError ? <ErrorNote error={agents.error} /> : null}
      {agents.data ? (
        agents.data.data.length === 0 ? (
          <p className="muted">No agents yet.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Mode</th>
                  <th scope="col">Initial parameters</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {agents.data.data.map((agent) => (
                  <tr key={agent.id}>
                    <th scope="row">{agent.name}</th>
                    <td>{agent.mode === "initiator" ? "Initiator" : "Responder"}</td>
                    <td>
                      {agent.parameters.length === 0
                        ? "None"
                        : agent.parameters.map((parameter) => parameter.name).join(", ")}
                    </td>
                    <td>
                      <When iso={agent.createdAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : null}
    </section>
  );
}
