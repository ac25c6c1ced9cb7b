/**
 * The rating on a link's page (docs/dashboard.md#screens): the score as stars and in words, the
 * comment (as text, never markup) and the time; "Not rated" before.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server.edge";
import { describe, expect, it } from "vitest";
import {
  awaitingRating,
  LinkRating,
  RATING_WATCH_MS,
  stars,
} from "../../src/dashboard/screens/links/LinkRating";

const render = (rating: Parameters<typeof LinkRating>[0]["rating"]) =>
  renderToStaticMarkup(createElement(LinkRating, { rating }));

describe("LinkRating", () => {
  it("shows the score as stars for the eye and in words for everyone, the comment and the time", () => {
    const html = render({ score: 4, comment: "<b>Quick</b>", ratedAt: "2026-11-27T03:00:00.000Z" });
    expect(html).toContain('<span class="rating-stars" aria-hidden="true">★★★★☆</span> 4 out of 5');
    expect(html).toContain("&lt;b&gt;Quick&lt;/b&gt;");
    expect(html).toContain('<time dateTime="2026-11-27T03:00:00.000Z">');
  });

  it("says None without a comment, and Not rated before a rating", () => {
    expect(render({ score: 1, comment: null, ratedAt: "2026-11-27T03:00:00.000Z" })).toContain(
      "None",
    );
    expect(render(null)).toContain("Not rated.");
    expect(stars(5)).toBe("★★★★★");
    expect(stars(1)).toBe("★☆☆☆☆");
  });

  it("keeps reading an ended, unrated link for a few minutes after the end, and then not", () => {
    const endedAt = "2026-11-27T03:00:00.000Z";
    const ended = Date.parse(endedAt);
    const conversation = {
      sessionId: "ses_1",
      status: "ended" as const,
      startedAt: endedAt,
      endedAt,
      messages: [],
      rating: null,
    };
    expect(awaitingRating(conversation, ended + 1_000)).toBe(true);
    expect(awaitingRating(conversation, ended + RATING_WATCH_MS)).toBe(false);
    const rating = { score: 3, comment: null, ratedAt: endedAt };
    expect(awaitingRating({ ...conversation, rating }, ended + 1_000)).toBe(false);
    const open = { ...conversation, status: "in-progress" as const, endedAt: null };
    expect(awaitingRating(open, ended)).toBe(false);
    expect(awaitingRating(null, ended)).toBe(false);
  });
});
