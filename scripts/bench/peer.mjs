// `npm run bench -- --peer node-red`: the peer's figures under the same load as ours.
import { measure } from "./load.mjs";
import { peerScenarios } from "./webhooks.mjs";

/**
 * The peer's rows: its process's figures for the same load, in memory and with SQLite records.
 * @param {{ peer: string, port: number, wanted: (name: string) => boolean, settings: { seconds: number, warmupSeconds: number, connections: number } }} options
 */
export async function peerRows({ peer: name, port, wanted, settings }) {
  if (name !== "node-red") throw new Error(`--peer ${name}: only node-red is known`);
  const { startNodeRed, NODE_RED_VERSION } = await import("./node-red-peer.mjs");
  const rows = [];
  for (const records of ["memory", "sqlite"]) {
    const peer = await startNodeRed({ secret: peerScenarios.secret, records, port });
    try {
      for (const s of peerScenarios.list(peer.routes).filter((s) => wanted(s.name))) {
        const row = await measure({
          base: peer.origin,
          pid: peer.pid,
          request: s.request,
          expect: s.expect,
          ...settings,
        });
        rows.push({
          peer: `node-red ${NODE_RED_VERSION} (${records})`,
          scenario: s.name,
          records,
          ...row,
        });
      }
      rows.at(-1).recordsWritten = peer.recordCount();
    } finally {
      await peer.stop();
    }
  }
  return rows;
}
