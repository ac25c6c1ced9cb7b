/**
 * The stand-in page of a widget preview (docs/dashboard.md#widget-preview): what a customer's
 * page holds, the channel's embed tag with the preview link's token, on a plain page that says
 * what it is. No inline script or style: its policy (`previewPagePolicy`) allows neither.
 */
import { escapeAttribute, PAGE_START } from "../../platform/html";

/**
 * The page's Content-Security-Policy: its own stylesheet, `/widget.js`, the widget's question
 * whether the channel allows this site, and the chat frame from the widget's origin (`BASE_URL`,
 * which may differ from the dashboard's), framed only by the dashboard.
 * @param widgetOrigin e.g. `https://launch.example.com`
 */
export function previewPagePolicy(widgetOrigin: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' ${widgetOrigin}`,
    "style-src 'self'",
    `connect-src ${widgetOrigin}`,
    "img-src 'self' data:",
    `frame-src 'self' ${widgetOrigin}`,
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/**
 * The page: a heading, one sentence on what the widget in the corner is, and `embedHtml`, the
 * embed tag exactly as the launch API gives it (its attributes escaped there).
 * @param memberName the preview's person, shown as text
 */
export function previewPageHtml(embedHtml: string, memberName: string): string {
  return `${PAGE_START}
<meta name="robots" content="noindex, nofollow">
<title>Widget preview</title>
<link rel="stylesheet" href="/widget-preview.css">
</head>
<body>
<main class="stand-in">
<h1>Widget preview</h1>
<p>This page stands in for your website: the chat button in the corner is the widget as your
visitors see it. Chatting here is a real conversation with the agent, as ${escapeAttribute(memberName)}.</p>
</main>
${embedHtml}
</body>
</html>
`;
}
