// `npm run test:sdk-install` (part of `npm test`): the SDK as a project gets it (sdk/README.md,
// "Install"). `npm pack` in sdk/ (its prepack builds dist/), then in a new project in a temporary
// folder outside the repository `npm install <tarball>` (from the npm cache when it has the
// dependencies). There, with the repository's TypeScript (strict, module nodenext, no casts added):
//   - every ```ts block of README.md, docs/**/*.md and sdk/README.md is type-checked as an ES
//     module against the installed package (scripts/doc-ts-blocks.mjs; `no-check` blocks counted);
//   - the blocks marked `run` are also written as CommonJS (.cts), type-checked, compiled, and run
//     against a local server (scripts/local-server.mjs, seeded by scripts/demo-seed.mjs; the
//     example reads BASE_URL, WIDGET_KEY, FLOW_ID, CHANNEL_ID as a reader's would) on
//     Node 20 (the machine's own node; compiled ESM, compiled CJS, and the block saved as .mjs)
//     and Node 22 (compiled ESM, compiled CJS, and the .mts as it is, by type stripping).
// Each run must print a link's URL, its status from a look-up, the list's lines and the refused
// end's code; the server must then hold one revoked link per run for the example's participant.
// Last, verifyEvent (its standardwebhooks is CommonJS only) checks a signed event and refuses a
// wrong secret, imported and required, on both Nodes.
// Node 22 is npm's `node` package at the version pinned in scripts/sdk-install/node22/, installed
// once into node_modules/.cache/ (not a devDependency: its `node` bin would replace the pinned
// Node 24's in node_modules/.bin). Bounded: every child process has a time limit.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { seedDemoWorkspace } from "./demo-seed.mjs";
import { asCommonJs, projectTsBlocks } from "./doc-ts-blocks.mjs";
import { fetchApi, ROOT, startFreshServer } from "./local-server.mjs";
import { demoLaunchesOf, findNode, installNode22 } from "./sdk-install/nodes.mjs";

const STEP_MS = 180_000;
const RUN_MS = 60_000;
const started = Date.now();
const log = (message) => console.log(`[sdk-install] ${message}`);
const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");

/** Runs a command; its output is returned, and shown with the command when it fails. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    encoding: "utf8",
    timeout: options.timeout ?? STEP_MS,
    cwd: options.cwd,
    env: options.env ?? process.env,
  });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}${result.error ?? ""}`.trim();
    throw new Error(`${[command, ...args].join(" ")} failed (${result.status}):\n${output}`);
  }
  return result.stdout;
}

const work = mkdtempSync(join(tmpdir(), "agent-edge-sdk-install-"));
let server;
try {
  // 1. The tarball, as `npm pack` makes it.
  const packOutput = run("npm", ["pack", "--json", "--pack-destination", work], {
    cwd: join(ROOT, "sdk"),
  });
  // The prepack's build prints first; the JSON is the array after it.
  const packed = JSON.parse(packOutput.slice(packOutput.search(/^\[$/m)));
  const tarball = join(work, packed[0].filename);
  const files = packed[0].files.map((file) => file.path);
  for (const needed of ["dist/esm/index.js", "dist/cjs/index.js", "dist/cjs/package.json"]) {
    if (!files.includes(needed)) throw new Error(`The tarball has no ${needed}.`);
  }
  log(`packed ${packed[0].filename} (${files.length} files)`);

  // 2. A new project that installs it.
  const project = join(work, "project");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify({ name: "sdk-install-test", private: true, version: "0.0.0" }, null, 2)}\n`,
  );
  run(
    "npm",
    ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
    { cwd: project },
  );
  log("installed the tarball in a new project");

  // 3. The docs' blocks, type-checked against the installed package.
  const blocks = projectTsBlocks(ROOT);
  const checked = blocks.filter((block) => block.check);
  const runnable = blocks.filter((block) => block.run);
  if (runnable.length === 0) throw new Error("No ```ts run block: sdk/README.md's example is one.");
  const names = new Map();
  for (const block of checked) {
    const name = `${block.file.replace(/[^A-Za-z0-9]+/g, "_")}_${block.line}`;
    names.set(block, name);
    writeFileSync(join(project, `${name}.mts`), block.code);
    if (block.run) {
      writeFileSync(join(project, `${name}.cts`), asCommonJs(block.code));
      writeFileSync(join(project, `${name}.mjs`), block.code);
    }
  }
  const compilerOptions = {
    strict: true,
    target: "es2022",
    lib: ["es2022"],
    module: "nodenext",
    moduleResolution: "nodenext",
    // The repository's @types/node: the project installs nothing but the SDK.
    typeRoots: [join(ROOT, "node_modules", "@types")],
    types: ["node"],
    outDir: "out",
  };
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({ compilerOptions, include: ["*.mts", "*.cts"] }, null, 2),
  );
  const where = (name) => blocks.find((block) => names.get(block) === name);
  try {
    run(process.execPath, [tsc, "-p", "."], { cwd: project });
  } catch (error) {
    // Point at the Markdown: `README_md_7.mts(3,5)` → `sdk/README.md:7 (block line 3)`.
    const message = String(error instanceof Error ? error.message : error).replace(
      /(\w+)\.([mc])ts\((\d+),\d+\)/g,
      (text, name, kind, line) => {
        const block = where(name);
        if (!block) return text;
        return kind === "m"
          ? `${block.file}:${block.line + Number(line)}`
          : `${block.file}:${block.line} (as CommonJS, line ${line} of ${name}.cts)`;
      },
    );
    throw new Error(`A docs block does not type-check against the SDK:\n${message}`);
  }
  log(
    `type-checked ${checked.length} ts block(s) of the docs (${blocks.length - checked.length} marked no-check), ${runnable.length} also as CommonJS`,
  );

  // 4. A local server with a demo workspace, and the two Nodes.
  const node20 = findNode(20, process.env.PATH?.split(delimiter) ?? []);
  const node22 = installNode22(ROOT, run);
  let operatorToken;
  ({ server, operatorToken } = await startFreshServer());
  const demo = await seedDemoWorkspace(fetchApi(server.base), operatorToken);
  const env = {
    ...process.env,
    BASE_URL: server.base,
    WIDGET_KEY: demo.widgetKey,
    FLOW_ID: demo.agentId,
    CHANNEL_ID: demo.channelId,
  };

  // 5. Each runnable block on each Node, as ES module and as CommonJS.
  let runs = 0;
  for (const block of runnable) {
    const name = names.get(block);
    const variants = [
      [node20, `out/${name}.mjs`],
      [node20, `out/${name}.cjs`],
      [node20, `${name}.mjs`],
      [node22, `out/${name}.mjs`],
      [node22, `out/${name}.cjs`],
      [node22, `${name}.mts`],
    ];
    for (const [node, file] of variants) {
      const output = run(node.path, [file], { cwd: project, env, timeout: RUN_MS });
      const where = `${block.file}:${block.line} as ${file} on Node ${node.version}`;
      const lines = output.trim().split("\n");
      const expectations = [
        [/#launch=/, "the link's URL"],
        [/^pending$/, "the look-up's status"],
        [/^lnk_\S+ pending$/, "the new link in the list"],
        [/^link_not_open$/, "the refused end's code"],
      ];
      for (const [pattern, what] of expectations) {
        if (!lines.some((line) => pattern.test(line))) {
          throw new Error(`${where} did not print ${what}:\n${output}`);
        }
      }
      runs++;
      const links = await demoLaunchesOf(server.base, demo.widgetKey, "cus_42");
      if (links.length !== runs || links.some((link) => link.status !== "revoked")) {
        throw new Error(
          `${where}: the server holds ${JSON.stringify(links)}, not ${runs} revoked link(s)`,
        );
      }
      log(`ran ${file} on Node ${node.version}: created, looked up, listed, ended, revoked`);
    }
  }
  // 6. verifyEvent, whose standardwebhooks is CommonJS only, from both formats on both Nodes.
  const verify = (load) => `${load}
const { Webhook } = require("standardwebhooks");
const secret = \`whsec_\${Buffer.from("sdk-install-test-secret-32-bytes").toString("base64")}\`;
const body = JSON.stringify({ id: "msg_1", type: "event.test", createdAt: new Date().toISOString(), data: {} });
const signature = new Webhook(secret).sign("msg_1", new Date(), body);
const headers = { "webhook-id": "msg_1", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": signature };
console.log(sdk.verifyEvent(body, headers, secret).type);
try { sdk.verifyEvent(body, headers, "whsec_" + Buffer.from("another").toString("base64")); }
catch (error) { console.log(error instanceof sdk.EventVerificationError ? "refused" : String(error)); }
`;
  writeFileSync(join(project, "verify.cjs"), verify('const sdk = require("@agent-edge/sdk");'));
  writeFileSync(
    join(project, "verify.mjs"),
    verify(
      'import * as sdk from "@agent-edge/sdk";\nimport { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);',
    ),
  );
  for (const node of [node20, node22]) {
    for (const file of ["verify.mjs", "verify.cjs"]) {
      const output = run(node.path, [file], { cwd: project, timeout: RUN_MS }).trim();
      if (output !== "event.test\nrefused") {
        throw new Error(`${file} on Node ${node.version}: verifyEvent printed\n${output}`);
      }
    }
  }
  log(
    "verifyEvent verified a signed event and refused a wrong secret, ESM and CommonJS, Node 20 and 22",
  );
  log(`passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(`[sdk-install] ${error instanceof Error ? error.message : error}`);
  if (server) console.error(`[sdk-install] wrangler's output, last lines:\n${server.output()}`);
  process.exitCode = 1;
} finally {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
}
