/** The editor's queries (docs/dashboard.md#workflow-editor): captured samples and secret names. */
import { useQueries, useQuery } from "@tanstack/react-query";
import { api, readAll, unwrap } from "../../../api";
import { useDebugSample } from "./run-context";
import { withDebugSample } from "./run-format";

/** The captured samples of webhook node `key` of workflow `id`, newest first (docs/webhooks.md#capture). */
export function samplesQuery(id: string, key: string, poll = false) {
  return {
    queryKey: ["samples", id, key],
    queryFn: () =>
      readAll((query) =>
        unwrap(
          api.GET("/v1/manage/workflows/{id}/nodes/{key}/samples", {
            params: { path: { id, key }, query },
          }),
        ),
      ),
    refetchInterval: poll ? 2_000 : (false as const),
  };
}

/**
 * The newest sample's output of each of `keys` (saved webhook nodes), by key; a "Debug in editor"
 * execution's trigger data takes its node's place (run-context.tsx).
 */
export function useNewestSamples(id: string, keys: string[]): Record<string, unknown> {
  const results = useQueries({ queries: keys.map((key) => samplesQuery(id, key)) });
  const debug = useDebugSample();
  const newest: Record<string, unknown> = {};
  keys.forEach((key, i) => {
    const sample = results[i]?.data?.data[0];
    if (sample) newest[key] = sample.output;
  });
  return withDebugSample(newest, debug);
}

/** The workspace's secret names, for `{{secrets.NAME}}` (the Secrets screen's query). */
export function useSecretNames(): string[] {
  const secrets = useQuery({
    queryKey: ["secrets"],
    queryFn: () => readAll((query) => unwrap(api.GET("/v1/manage/secrets", { params: { query } }))),
  });
  return secrets.data?.data.map((secret) => secret.name) ?? [];
}
