// Each preset's telling frame: the frame whose caption makes the scenario's
// point, found in the native runner's trace (`cachescope trace`), never a
// hard-coded number, so screenshots and audits follow the simulation when it
// changes. Shared by scripts/screenshots.mjs and the accessibility audit.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * One entry a picture: the preset, the settings it is shown with, how its
 * telling frame is found (`at` the first caption matching, or the frame
 * `before` it), and what the picture shows, in words (its alt text).
 */
export const TELLING = [
  {
    file: 'over-create-generate',
    preset: 'over-create',
    settings: { 'controller.naming': 'generate' },
    pick: { at: /^Reconcile 3 reads the cache/ },
    alt: 'over-create with GenerateName: reconcile 3 reads 1 of 4 ConfigMaps while the cluster holds 8, and creates 3 more: 11',
  },
  {
    file: 'over-create-deterministic',
    preset: 'over-create',
    settings: {},
    pick: { at: /409 AlreadyExists/ },
    alt: 'over-create with deterministic names: the second reconcile’s create gets 409 AlreadyExists, and four ConfigMaps stay four',
  },
  {
    file: 'over-create-surplus',
    preset: 'over-create-surplus',
    settings: {},
    pick: { at: /fewer than it wants/ },
    alt: 'over-create-surplus: a reconcile on a stale cache deletes below the desired count, so the next will create again',
  },
  {
    file: 'empty-cache',
    preset: 'empty-cache',
    settings: {},
    pick: { at: /deletes ConfigMap seed-34:/ },
    alt: 'empty-cache without WaitForCacheSync: the cache is empty, the first LIST still on its way, and the pruner deletes live ConfigMaps',
  },
  {
    file: 'read-your-write',
    preset: 'read-your-write',
    settings: {},
    pick: { at: /409 AlreadyExists/ },
    alt: 'read-your-write: seed-99 was created, the cache does not have it yet, and the second create gets 409 AlreadyExists',
  },
  {
    file: 'replicaset-pressure',
    preset: 'replicaset-pressure',
    settings: {},
    pick: { at: /expectations for .* are not satisfied/ },
    alt: 'replicaset-pressure: the ReplicaSet controller skips a sync while its expectations still wait for pod ADDED events',
  },
  {
    file: 'expectations-timeout',
    preset: 'expectations-timeout',
    settings: {},
    pick: { at: /past the timeout/ },
    alt: 'expectations-timeout: a lost ADDED event left the expectations unsatisfied until the five-minute timeout',
  },
  {
    file: 'teardown',
    preset: 'teardown',
    settings: {},
    pick: { at: /^garbage-collector deletes/ },
    alt: 'teardown: the Ensemble is gone and the garbage collector deletes its children by their ownerReferences',
  },
  {
    file: 'staleness-mitigation',
    preset: 'staleness-mitigation',
    settings: {},
    pick: { at: /skipped by the consistency store/ },
    alt: "staleness-mitigation: the consistency store, ported into the operator, skips the re-added reconcile, its ConfigMap cache behind the controller's own writes",
  },
  {
    file: 'staleness-mitigation-replicaset',
    preset: 'staleness-mitigation-replicaset',
    settings: {},
    pick: { at: /skipped by the consistency store/ },
    alt: 'staleness-mitigation-replicaset: past the expectations timeout, the consistency store still holds the sync until the pod cache has read the controller’s creates',
  },
  {
    file: 'two-replicas',
    preset: 'two-replicas',
    settings: {},
    pick: { at: /^Replica A: replicaset-controller creates Pod .*This breaks children_within_desired/ },
    alt: 'two-replicas: the leader, thawed after another replica took its lease, leads on until its renew deadline and sends the creates it had decided: three pods over',
  },
  {
    file: 'lost-bookmark',
    preset: 'lost-bookmark',
    settings: {},
    pick: { at: /initial-events-end BOOKMARK of the controller's ConfigMap watch-list .* is lost/ },
    alt: "lost-bookmark: the ConfigMap watch-list's initial-events-end BOOKMARK is lost, so its cache does not sync and the workers wait",
  },
];

/** The runner's trace of a preset with settings: one object per frame. */
export function trace(preset, settings = {}) {
  const bin = process.env.CACHESCOPE_BIN;
  const args = ['trace', preset, ...Object.entries(settings).flatMap(([k, v]) => ['--set', `${k}=${v}`])];
  const [cmd, argv] = bin ? [bin, args] : ['cargo', ['run', '-q', '--bin', 'cachescope', '--', ...args]];
  const out = execFileSync(cmd, argv, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
  return out.trim().split('\n').map((line) => JSON.parse(line));
}

/** The frame number `pick` finds in `frames`. */
export function pickFrame(frames, { at, before }) {
  const re = at ?? before;
  const hit = frames.find((f) => re.test(f.caption));
  if (!hit) throw new Error(`no frame's caption matches ${re}`);
  return at ? hit.n : hit.n - 1;
}

/** The query string that opens `shot` at its telling frame. */
export function tellingQuery(shot) {
  const frame = pickFrame(trace(shot.preset, shot.settings), shot.pick);
  return { frame, query: `?${new URLSearchParams({ s: shot.preset, ...shot.settings, frame: String(frame) })}` };
}
