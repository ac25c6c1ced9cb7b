/** Schemas of the dashboard's widget preview (docs/api/manage.md#widget-preview). */
import { z } from "@hono/zod-openapi";
import { CreatedLaunchSchema, CreateLaunchSchema } from "../../launch";
import { once } from "../../platform/once";
import { channelSchemas } from "../channel-schemas";

/**
 * The widget preview's schemas, built on first use: in the Worker only the management API needs
 * them, and it is built on its first request (src/routes.ts).
 */
export const previewSchemas = once(() => {
  /** The path of a preview: the agent and one of its widget channels (a channel's own path). */
  const PreviewParamsSchema = channelSchemas().ChannelParamsSchema;

  const PreviewLinkRequestSchema = z
    .strictObject({
      parameters: CreateLaunchSchema.shape.parameters,
      globalTask: CreateLaunchSchema.shape.globalTask,
      restart: z.boolean().optional().openapi({
        description:
          "Start a new conversation even when a live preview with these values exists (it is revoked)",
      }),
    })
    .openapi("PreviewLinkRequest");

  const PreviewLinkSchema = z
    .object({
      ...CreatedLaunchSchema.shape,
      token: z.string().openapi({
        description: "The link's token; the same for every answer about this preview link",
      }),
      participant: z.object({
        name: z.string().openapi({ description: "The member's name" }),
        externalId: z.string().openapi({ example: "dashboard-preview:mem_…" }),
      }),
      previewUrl: z.string().openapi({
        description:
          "The stand-in page showing the widget with this link, for a browser signed in to the dashboard as this member",
        example: "https://app.example.com/app/preview/lnk_…",
      }),
      reused: z.boolean().openapi({ description: "true when a live preview link was given again" }),
    })
    .openapi("PreviewLink");

  return { PreviewParamsSchema, PreviewLinkRequestSchema, PreviewLinkSchema };
});

/** The types of the schemas `previewSchemas` builds, by name. */
export type PreviewSchemas = ReturnType<typeof previewSchemas>;

export type PreviewLinkRequest = z.infer<PreviewSchemas["PreviewLinkRequestSchema"]>;

export type PreviewLink = z.infer<PreviewSchemas["PreviewLinkSchema"]>;
