export { previewPageHtml, previewPagePolicy } from "./preview/page";
export { previewPageLink, previewPath } from "./preview/preview";
