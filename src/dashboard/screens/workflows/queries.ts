/** The workflow screens' shared queries (docs/dashboard.md#screens), one cache key each. */
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../api";

/** Workflow `id` (GET /v1/manage/workflows/{id}), shared by its screens; StartStop updates it. */
export function useWorkflow(id: string) {
  return useQuery({
    queryKey: ["workflow", id],
    queryFn: () => unwrap(api.GET("/v1/manage/workflows/{id}", { params: { path: { id } } })),
  });
}
