/**
 * The workflow editor in a real browser (docs/dashboard.md#workflow-editor), under `wrangler dev`
 * and Debian's Chromium. An Owner creates a workflow (it opens on the canvas with its webhook),
 * adds a condition and a set from the palette (each right of the node selected before it and
 * connected from it; the condition's operator reads "Choose…" until chosen), connects them again
 * by dragging a handle and by the panel's form, captures a test call whose fields the condition's templates then offer, compares
 * the secret header with a workspace secret, sees a save refused with the problem on the node it
 * names, saves, copies the Webhook URL, starts the workflow and calls it; positions survive a
 * reload; a deletion is undone with Ctrl+Z and a node added by searching from the keyboard;
 * leaving unsaved edits asks first. The webhook's URLs, the canvas's bottom edge and its zoom
 * controls fit a 1440×900 window. A chosen execution shows on the nodes, "Debug in editor" loads
 * its call for the next test, and "Test workflow" runs a stopped workflow on a call to its test
 * URL, the failed node red with its error. A Member sees the canvas read only. axe-core finds
 * nothing serious or critical, light and
 * dark, at 375 px too. Screenshots: test-results/browser/editor-*.png.
 */
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Api, type DemoWorkspace, seedDemoWorkspace } from "../../scripts/demo-seed.mjs";
import { fetchApi } from "../../scripts/local-server.mjs";
import { canvasNode, dragBetween, panel, within } from "./canvas";
import { launchChromium } from "./chromium";
import { type DashboardPage, look, need, shotOnFailure, signIn } from "./dashboard-page";
import { startWranglerServer, type WranglerServer } from "./wrangler-server";

const SECRET = "hook-secret-5d2e9a";
const WINDOW = { width: 1440, height: 900 };

let server: WranglerServer | undefined;
let browser: Browser | undefined;
let api: Api;
let demo: DemoWorkspace;
let owner: DashboardPage | undefined;
let workflowId = "";

beforeAll(async () => {
  server = await startWranglerServer();
  api = fetchApi(server.base);
  demo = await seedDemoWorkspace(api, server.operatorToken);
  const secret = await api("PUT", "/v1/manage/secrets/HOOK_SECRET", {
    token: demo.memberToken,
    body: { value: SECRET },
  });
  expect(secret.status).toBeLessThan(300);
  browser = await launchChromium();
  const link = await api("POST", "/v1/manage/sign-in-links", {
    token: demo.memberToken,
    body: {},
  });
  owner = await signIn(browser, server.base, link.json.url);
  // The size issue 30's faults were seen at: the canvas and the panel must fit it.
  await owner.page.setViewportSize(WINDOW);
});

afterEach((context) => shotOnFailure(context, owner?.page, "editor"));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the workflow editor", () => {
  it("creates a workflow that opens on the canvas with its webhook", async () => {
    const { page } = need(owner, "owner");
    await page.getByRole("link", { name: "Workflows" }).click();
    await page.getByRole("button", { name: "New workflow" }).click();
    const dialog = page.getByRole("dialog", { name: "New workflow" });
    await dialog.getByLabel("Name").fill("Signed orders");
    expect(await dialog.getByLabel("Slug").inputValue()).toBe("signed-orders");
    await dialog.getByRole("button", { name: "Create and open the editor" }).click();
    await page.waitForURL(/\/app\/workflows\/wf_[^/]+\/editor$/);
    workflowId = new URL(page.url()).pathname.split("/")[3] ?? "";
    await canvasNode(page, "Webhook").waitFor();
    await panel(page)
      .getByRole("heading", { name: /Webhook/ })
      .waitFor();
    // The production and test URLs, the method and Copy: at the top, in view without scrolling.
    for (const url of ["Production URL", "Test URL"]) {
      await within(panel(page).getByLabel(url, { exact: true }), WINDOW);
    }
    await within(panel(page).getByRole("button", { name: "Copy the test URL" }), WINDOW);
    await panel(page).locator(".url-method").first().getByText("POST").waitFor();
    // The canvas fits the window: its bottom edge and the zoom controls are in view.
    await within(page.locator(".canvas"), WINDOW);
    await within(page.getByRole("button", { name: "Fit view" }), WINDOW);
    await look(page, "editor-1-new");
  });

  it("adds nodes from the palette and connects them by dragging and by the panel", async () => {
    const { page } = need(owner, "owner");
    const palette = page.getByRole("region", { name: "Add a node" });
    await palette.getByRole("button", { name: "Condition" }).click();
    await canvasNode(page, "Condition").waitFor();
    // The new node is selected: its panel shows its schema's fields; the operator, a required
    // choice without a default, reads "Choose…" rather than a value it does not have.
    const operator = panel(page).getByLabel("Operator");
    expect(await operator.inputValue()).toBe("");
    expect(await operator.locator("option:checked").textContent()).toBe("Choose…");
    await palette.getByRole("button", { name: "Set" }).click();
    await canvasNode(page, "Set").waitFor();
    // Each added right of the node selected before it and connected from it (the condition's
    // true branch), none on top of another.
    await expect.poll(() => page.locator(".react-flow__edge").count()).toBe(2);
    const box = async (name: string) =>
      need((await canvasNode(page, name).boundingBox()) ?? undefined, name);
    const [hook, condition, set] = [await box("Webhook"), await box("Condition"), await box("Set")];
    expect(condition.x).toBeGreaterThanOrEqual(hook.x + hook.width);
    expect(set.x).toBeGreaterThanOrEqual(condition.x + condition.width);
    await canvasNode(page, "Condition").click();
    await panel(page).getByRole("listitem").filter({ hasText: "true: Set (set_1)" }).waitFor();
    // Handles are easy to hit: 16 px at least.
    const handle = need(
      (await page.locator(".react-flow__handle").first().boundingBox()) ?? undefined,
      "a handle",
    );
    expect(Math.min(handle.width, handle.height)).toBeGreaterThanOrEqual(16);

    // The same connections by hand: removed, then Webhook → Condition by dragging from the output
    // handle to the input handle, and Condition → Set by the panel's form.
    await panel(page).getByRole("button", { name: "Remove the connection to Set (set_1)" }).click();
    await canvasNode(page, "Webhook").click();
    await panel(page)
      .getByRole("button", { name: "Remove the connection to Condition (condition_1)" })
      .click();
    await expect.poll(() => page.locator(".react-flow__edge").count()).toBe(0);
    const from = canvasNode(page, "Webhook").locator(".react-flow__handle.source");
    const to = canvasNode(page, "Condition").locator(".react-flow__handle.target");
    await dragBetween(page, from, to);
    await expect.poll(() => page.locator(".react-flow__edge").count()).toBe(1);

    // Condition → Set on the true branch, by keyboard, in the panel's form.
    await canvasNode(page, "Condition").click();
    const connect = panel(page).locator(".connect-form");
    await connect.getByLabel("Connect to").selectOption({ label: "Set (set_1)" });
    await connect.getByLabel("On branch").selectOption("true");
    await connect.getByRole("button", { name: "Connect" }).press("Enter");
    await panel(page).getByText("Connected to Set (set_1).").waitFor();
    await expect.poll(() => page.locator(".react-flow__edge").count()).toBe(2);
    await panel(page).getByRole("listitem").filter({ hasText: "true: Set (set_1)" }).waitFor();
    await look(page, "editor-2-connected");
  });

  it("offers the fields of a captured test call and the secrets in the condition's templates", async () => {
    const { page } = need(owner, "owner");
    await canvasNode(page, "Webhook").click();
    await panel(page).getByRole("button", { name: "Listen for test calls" }).click();
    const testUrl = await panel(page).getByLabel("Test URL").inputValue();
    expect(testUrl).toContain("/webhook-test/");
    const captured = await fetch(testUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "x-secret": "from-a-test-call" },
      body: JSON.stringify({ order: { id: 7 } }),
    });
    expect(await captured.json()).toEqual({ captured: true });
    await panel(page).getByText("1 test call captured.").waitFor({ timeout: 10_000 });

    await canvasNode(page, "Condition").click();
    const left = panel(page).getByLabel("Insert a field into Left");
    // The sample's own fields, not only the webhook's generic shape.
    const offered = await left.locator("option").allTextContents();
    expect(offered).toContain("{{webhook_1.headers.x-secret}}");
    expect(offered).toContain("{{webhook_1.body.order.id}}");
    await left.selectOption("{{webhook_1.headers.x-secret}}");
    expect(await panel(page).getByLabel("Left value", { exact: true }).inputValue()).toBe(
      "{{webhook_1.headers.x-secret}}",
    );
    await panel(page).getByLabel("Operator").selectOption("equals");
    await panel(page)
      .getByLabel("Insert a field into Right")
      .selectOption("{{secrets.HOOK_SECRET}}");

    await canvasNode(page, "Set").click();
    await panel(page).getByLabel("Fields", { exact: true }).fill('{"accepted": true, "order": }');
    await panel(page).getByText("Not valid JSON yet").waitFor();
    await panel(page)
      .getByLabel("Fields", { exact: true })
      .fill('{"accepted": true, "order": "{{webhook_1.body.order.id}}"}');
    expect(await canvasNode(page, "Set").locator(".wf-node-problems").count()).toBe(0);
    await look(page, "editor-3-templates");
  });

  it("shows a refused save's problem on the node it names, then saves", async () => {
    const { page } = need(owner, "owner");
    // A respond node answers only a responseNode webhook: the API refuses it here.
    await page
      .getByRole("region", { name: "Add a node" })
      .getByRole("button", { name: "Respond" })
      .click();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText(/Not saved: 1 problem/).waitFor();
    await canvasNode(page, "Respond").getByText("1 problem").waitFor();
    await panel(page)
      .getByText(/responseNode/)
      .first()
      .waitFor();
    await look(page, "editor-4-refused");
    await panel(page).getByRole("button", { name: "Remove Respond" }).click();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();

    const saved = await api("GET", `/v1/manage/workflows/${workflowId}`, {
      token: demo.memberToken,
    });
    expect(saved.json.nodes.map((node: { key: string }) => node.key)).toEqual([
      "webhook_1",
      "condition_1",
      "set_1",
    ]);
    expect(saved.json.connections).toEqual([
      { from: "webhook_1", to: "condition_1" },
      { from: "condition_1", to: "set_1", branch: "true" },
    ]);
    expect(saved.json.nodes[1]).toMatchObject({
      left: "{{webhook_1.headers.x-secret}}",
      operator: "equals",
      right: "{{secrets.HOOK_SECRET}}",
    });
  });

  it("copies the Webhook URL, starts the workflow and runs it", async () => {
    const { page } = need(owner, "owner");
    await canvasNode(page, "Webhook").click();
    const url = await panel(page).getByLabel("Production URL").inputValue();
    await panel(page).getByRole("button", { name: "Copy the production URL" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await page.getByRole("button", { name: "Start Signed orders" }).click();
    await page.getByText("Signed orders is running").waitFor();
    const call = (secret: string) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-secret": secret },
        body: JSON.stringify({ order: { id: 42 } }),
      });
    expect((await call(SECRET)).status).toBe(200);
    await page.getByRole("link", { name: "Executions" }).click();
    const executions = page.getByRole("region", { name: "Executions" }).getByRole("row");
    await expect.poll(() => executions.count()).toBe(2);
    await executions.nth(1).getByRole("link").click();
    await page.getByRole("article", { name: /set_1/ }).getByText('"accepted": true').waitFor();
    await look(page, "editor-5-execution");
  });

  it("keeps a moved node where it was dropped", async () => {
    const { page } = need(owner, "owner");
    await page.getByRole("link", { name: "Signed orders" }).click();
    await page.getByRole("link", { name: "Editor" }).click();
    const node = canvasNode(page, "Set");
    const box = need((await node.boundingBox()) ?? undefined, "the Set node's box");
    await page.mouse.move(box.x + 20, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + 20, box.y + 130, { steps: 8 });
    await page.mouse.up();
    await page.getByText("Unsaved changes.").waitFor();
    const before = await api("GET", `/v1/manage/workflows/${workflowId}`, {
      token: demo.memberToken,
    });
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    const after = await api("GET", `/v1/manage/workflows/${workflowId}`, {
      token: demo.memberToken,
    });
    expect(after.json.nodes[2].position.y).toBeGreaterThan(before.json.nodes[2].position.y + 50);
    await page.reload();
    const moved = need((await canvasNode(page, "Set").boundingBox()) ?? undefined, "after reload");
    const x = async (name: string) => (await canvasNode(page, name).boundingBox())?.x ?? 0;
    const webhook = need((await canvasNode(page, "Webhook").boundingBox()) ?? undefined, "webhook");
    expect(moved.y).toBeGreaterThan(webhook.y + 50);

    // Tidy up: a column per step from the trigger.
    await page.getByRole("button", { name: "Tidy up" }).click();
    await expect.poll(async () => (await x("Condition")) > (await x("Webhook"))).toBe(true);
    await expect.poll(async () => (await x("Set")) > (await x("Condition"))).toBe(true);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await canvasNode(page, "Condition").click();
    await look(page, "editor-7-tidy");
  });

  it("undoes a deletion and adds a node by searching, from the keyboard", async () => {
    const { page } = need(owner, "owner");
    const edges = page.locator(".react-flow__edge");
    await canvasNode(page, "Set").click();
    await page.keyboard.press("Delete");
    await expect.poll(() => canvasNode(page, "Set").count()).toBe(0);
    await expect.poll(() => edges.count()).toBe(1);
    await page.keyboard.press("Control+z");
    await canvasNode(page, "Set").waitFor();
    await expect.poll(() => edges.count()).toBe(2);
    await panel(page).getByRole("heading", { name: /Set/ }).waitFor();

    // "/" opens the search; typing filters the types; Enter adds one after the selected Set.
    await page.keyboard.press("/");
    const search = page.getByRole("combobox", { name: "Search node types" });
    expect(await search.evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.type("wai");
    const types = page.getByRole("listbox", { name: "Node types" }).getByRole("option");
    expect(await types.allTextContents()).toEqual(["Wait"]);
    await page.keyboard.press("Enter");
    await canvasNode(page, "Wait").waitFor();
    await expect.poll(() => edges.count()).toBe(3);
    await panel(page).getByRole("heading", { name: /Wait/ }).waitFor();

    // Copied and pasted: a second Wait with a new key, undone again.
    await canvasNode(page, "Wait").click();
    await page.keyboard.press("Control+c");
    await page.keyboard.press("Control+v");
    await canvasNode(page, "Wait").filter({ hasText: "wait_2" }).waitFor();
    await page.keyboard.press("Control+z");
    await expect.poll(() => canvasNode(page, "Wait").count()).toBe(1);

    // A sticky note, written on the canvas.
    await page.getByRole("button", { name: "Note", exact: true }).click();
    await page.getByLabel("Note text").fill("Orders only; refunds go elsewhere.");
    await look(page, "editor-10-search-added");
  });

  it("selects nodes with a box (Shift+drag), removes them together and undoes it", async () => {
    const { page } = need(owner, "owner");
    const nodes = page.locator(".react-flow__node-workflow");
    const before = await nodes.count();
    const box = async (name: string) =>
      need((await canvasNode(page, name).boundingBox()) ?? undefined, name);
    const [hook, condition] = [await box("Webhook"), await box("Condition")];
    // From just outside the webhook's top left corner to past the condition's bottom right.
    await page.keyboard.down("Shift");
    await page.mouse.move(hook.x - 10, Math.min(hook.y, condition.y) - 10);
    await page.mouse.down();
    await page.mouse.move(condition.x + condition.width + 10, condition.y + condition.height + 10, {
      steps: 10,
    });
    await page.mouse.up();
    await page.keyboard.up("Shift");
    await expect.poll(() => page.locator(".react-flow__node-workflow.selected").count()).toBe(2);
    await page.keyboard.press("Delete");
    await expect.poll(() => nodes.count()).toBe(before - 2);
    await page.keyboard.press("Control+z");
    await expect.poll(() => nodes.count()).toBe(before);
    // Redo removes them again; undo brings them back.
    await page.keyboard.press("Control+Shift+z");
    await expect.poll(() => nodes.count()).toBe(before - 2);
    await page.getByRole("button", { name: "Undo" }).click();
    await expect.poll(() => nodes.count()).toBe(before);
    // Duplicate: a copy with a new key, undone by the button.
    await canvasNode(page, "Condition").click();
    await page.getByRole("button", { name: "Duplicate" }).click();
    await canvasNode(page, "Condition").filter({ hasText: "condition_2" }).waitFor();
    await page.getByRole("button", { name: "Undo" }).click();
    await expect.poll(() => nodes.count()).toBe(before);
    // The minimap, for finding one's way on a large canvas.
    await page.getByLabel("Minimap of the workflow").waitFor();
  });

  it("asks before unsaved edits are left by the sidebar, back or a tab", async () => {
    const { page } = need(owner, "owner");
    const editorUrl = page.url();
    const nodes = page.locator(".react-flow__node");
    const before = await nodes.count();
    await page
      .getByRole("region", { name: "Add a node" })
      .getByRole("button", { name: "Set" })
      .click();
    await page.getByText("Unsaved changes.").waitFor();
    const asked = page.getByRole("dialog", { name: "Leave without saving?" });
    const stay = asked.getByRole("button", { name: "Stay" });
    await page
      .getByRole("navigation", { name: "Dashboard" })
      .getByRole("link", { name: "Links" })
      .click();
    await asked.waitFor();
    expect(await stay.evaluate((button) => button === document.activeElement)).toBe(true);
    await look(page, "editor-11-leave-unsaved");
    await stay.click();
    await asked.waitFor({ state: "hidden" });
    expect(page.url()).toBe(editorUrl);
    expect(await nodes.count()).toBe(before + 1);
    // Back asks too: Escape stays, on the editor's address, the edit kept.
    await page.goBack();
    await asked.waitFor();
    await page.keyboard.press("Escape");
    await asked.waitFor({ state: "hidden" });
    await expect.poll(() => page.url()).toBe(editorUrl);
    expect(await nodes.count()).toBe(before + 1);
    await page
      .getByRole("navigation", { name: "Workflow" })
      .getByRole("link", { name: "Executions" })
      .click();
    await asked.getByRole("button", { name: "Leave" }).click();
    await page.waitForURL(/\/app\/workflows\/wf_[^/]+$/);
    await page.getByRole("region", { name: "Executions" }).waitFor();
  });
});

describe("runs on the canvas", () => {
  it("shows a chosen run on the nodes, debugs it, and runs the debugged call as a test", async () => {
    const { page } = need(owner, "owner");
    // The test before left the editor (its unsaved edits dropped): back to the saved canvas.
    await page
      .getByRole("navigation", { name: "Workflow" })
      .getByRole("link", { name: "Editor" })
      .click();
    const bar = page.getByRole("region", { name: "Runs on the canvas" });
    // The production run of "copies the Webhook URL…": the right secret, so set_1 ran.
    await bar.getByLabel("Run on the canvas").selectOption({ index: 1 });
    const setRun = canvasNode(page, "Set").locator(".wf-run");
    await setRun.getByText("succeeded").waitFor({ state: "attached" });
    expect(await setRun.locator(".wf-run-output").textContent()).toMatch(/"order":"?42/);
    // The execution's page opens the editor on it, its call loaded as the sample.
    await bar.getByRole("link", { name: "Open execution" }).click();
    await page.getByRole("link", { name: "Debug in editor" }).click();
    await page.waitForURL(/\/editor\?debug=exe_/);
    const debugged = new URL(page.url()).searchParams.get("debug") ?? "";
    await bar.getByText(`Debugging ${debugged}`).waitFor();
    // The newest captured sample has the wrong secret (set_1 would not run); the debugged call
    // has the right one, so a test with it runs set_1.
    await bar.getByRole("button", { name: "Run with the debugged call" }).click();
    await expect
      .poll(async () => (await bar.getByLabel("Run on the canvas").inputValue()) !== debugged)
      .toBe(true);
    await setRun.getByText("succeeded").waitFor({ state: "attached" });
    const chosen = await bar.getByLabel("Run on the canvas").inputValue();
    const record = await api("GET", `/v1/manage/workflows/${workflowId}/executions/${chosen}`, {
      token: demo.memberToken,
    });
    expect(record.json).toMatchObject({ mode: "test", replayOf: debugged });
    await look(page, "editor-8-debug-run");
  });

  it("tests a stopped workflow on the next call to its test URL; the failed node is red with its error", async () => {
    const { page } = need(owner, "owner");
    const created = await api("POST", "/v1/manage/workflows", {
      token: demo.memberToken,
      body: {
        name: "Failing call",
        slug: "failing-call",
        nodes: [
          { type: "webhook" },
          { key: "call", name: "Call the shop", type: "http_request", url: "http://127.0.0.1:9/" },
        ],
        connections: [{ from: "webhook_1", to: "call" }],
      },
    });
    expect(created.status).toBe(201);
    await page.goto(`${need(server, "server").base}/app/workflows/${created.json.id}/editor`);
    const bar = page.getByRole("region", { name: "Runs on the canvas" });
    await bar.getByRole("button", { name: "Test workflow" }).click();
    const testUrl = await bar.getByLabel("Test URL").inputValue();
    const answer = await fetch(testUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ order: 9 }),
    });
    expect(answer.status).toBe(200);
    const failed = canvasNode(page, "Call the shop").locator(".wf-run-failed");
    await failed.waitFor({ state: "attached", timeout: 15_000 });
    expect((await failed.locator(".wf-run-error").textContent())?.length).toBeGreaterThan(0);
    await canvasNode(page, "Webhook")
      .locator(".wf-run")
      .getByText("succeeded")
      .waitFor({ state: "attached" });
    const border = await canvasNode(page, "Call the shop")
      .locator(".wf-node")
      .evaluate((element) => getComputedStyle(element).borderColor);
    expect(border).toBe("rgb(180, 35, 24)"); // --danger, light
    // The run's badges make the nodes taller: the canvas fits them again, clear of the minimap.
    const minimap = page.getByLabel("Minimap of the workflow");
    await expect
      .poll(async () => {
        const node = need((await canvasNode(page, "Call the shop").boundingBox()) ?? undefined, "");
        const map = need((await minimap.boundingBox()) ?? undefined, "the minimap");
        return node.y + node.height <= map.y;
      })
      .toBe(true);
    await look(page, "editor-9-test-failed");
  });

  it("sets the workflow's concurrency in its settings, checked as typed", async () => {
    const { page } = need(owner, "owner");
    // The workflow the last test opened.
    const id = need(/\/workflows\/([^/]+)\/editor/.exec(page.url())?.[1], "the workflow's id");
    await page.getByRole("button", { name: "Workflow settings" }).click();
    const settings = page.getByRole("region", { name: "Workflow settings" });
    const limit = settings.getByRole("spinbutton", { name: "Limit", exact: true });
    await limit.fill("101");
    await settings.getByText("Use 100 or less.").waitFor();
    expect(await limit.getAttribute("aria-invalid")).toBe("true");
    await limit.fill("2");
    await settings.getByRole("spinbutton", { name: /Queue limit/ }).fill("50");
    // Per-key concurrency: the key is a template over the webhook's call.
    const key = settings.getByRole("textbox", { name: /^Key/ });
    await key.fill("{{webhook_1.body.order}}");
    await settings.getByRole("spinbutton", { name: /Key limit/ }).fill("2");
    await page.getByText("Unsaved changes.").waitFor();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    const saved = await api("GET", `/v1/manage/workflows/${id}`, { token: demo.memberToken });
    expect(saved.json.concurrency).toEqual({
      limit: 2,
      queueLimit: 50,
      key: "{{webhook_1.body.order}}",
      keyLimit: 2,
    });
    // Emptied, the limit is removed again on the next save.
    await limit.fill("");
    await settings.getByRole("spinbutton", { name: /Queue limit/ }).fill("");
    await key.fill("");
    await settings.getByRole("spinbutton", { name: /Key limit/ }).fill("");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    const cleared = await api("GET", `/v1/manage/workflows/${id}`, { token: demo.memberToken });
    expect(cleared.json.concurrency).toBeNull();
  });
});

describe("the editor for a Member, dark and at 375 px", () => {
  it("shows the canvas and settings read only", async () => {
    const current = need(browser, "browser");
    const invited = await api("POST", "/v1/manage/members", {
      token: demo.memberToken,
      body: { email: "reader@demo.example", name: "Reader", role: "member" },
    });
    const member = await signIn(current, need(server, "server").base, invited.json.signInUrl, {
      viewport: { width: 375, height: 800 },
      colorScheme: "dark",
    });
    await member.page.goto(`${need(server, "server").base}/app/workflows/${workflowId}/editor`);
    await canvasNode(member.page, "Webhook").waitFor();
    expect(await member.page.getByRole("region", { name: "Add a node" }).count()).toBe(0);
    expect(await member.page.getByRole("button", { name: "Save", exact: true }).count()).toBe(0);
    await canvasNode(member.page, "Condition").click();
    expect(await panel(member.page).getByLabel("Operator").isDisabled()).toBe(true);
    await look(member.page, "editor-6-member-375-dark");
    expect(member.problems).toEqual([]);
  });
});
