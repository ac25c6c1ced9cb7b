/**
 * The workspace's lists that several screens read (docs/dashboard.md#screens), one cache key
 * each, so a screen showing a key's creator or a link's agent answers from the cache another
 * screen filled. The dialogs that change a list invalidate its key.
 */
import { useQuery } from "@tanstack/react-query";
import { api, readAll, unwrap } from "./api";

/** The signed-in member and their workspace (GET /v1/manage/me), as the shell shows them. */
export function useMe() {
  return useQuery({ queryKey: ["me"], queryFn: () => unwrap(api.GET("/v1/manage/me")) });
}

/** All the workspace's agents (GET /v1/manage/agents, every page). */
export function useAgents() {
  return useQuery({
    queryKey: ["agents"],
    queryFn: () => readAll((query) => unwrap(api.GET("/v1/manage/agents", { params: { query } }))),
  });
}

/** All the workspace's members (GET /v1/manage/members, every page). */
export function useMembers() {
  return useQuery({
    queryKey: ["members"],
    queryFn: () => readAll((query) => unwrap(api.GET("/v1/manage/members", { params: { query } }))),
  });
}

/** All the workspace's widget keys (GET /v1/manage/widget-keys, every page). */
export function useWidgetKeys() {
  return useQuery({
    queryKey: ["widget-keys"],
    queryFn: () =>
      readAll((query) => unwrap(api.GET("/v1/manage/widget-keys", { params: { query } }))),
  });
}
