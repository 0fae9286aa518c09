// The runs the page benchmarks play (tests/bench/page.mjs) and `make
// profile` profiles (tests/bench/profile.mjs): one definition, so the
// profile is of the very run the frame figures are.

import { LARGEST_ACCEPTED, pack } from '../e2e/support.mjs';

/**
 * The played run: `replicaset-pressure` scaled to 500 replicas, played from
 * frame 0 at 10 simulated seconds per second, so the ~5 s of recording cover
 * ~50 simulated seconds: the scale-up (500 creates, then their 500 ADDED
 * events on the watch) and then the lab's pressure, one pod deleted every
 * 250 ms from t = 4 s, each making the controller recreate a pod while 500
 * pods are drawn in both the Cluster and the Cache panels. The preset's 30
 * deletions would end at t = 11.5 s and its run at t = 30 s, before the
 * recording does, so the pressure goes on (400 deletions, to t = 104 s) and
 * the run is longer (until_ms): playback never reaches its end while recording.
 * The client-side rate limit is off (client_qps 0), as in the measurements
 * before it existed: at the preset's 20 a second the 500 creates alone would
 * take 25 simulated seconds.
 */
export const PLAY_QUERY = new URLSearchParams({
  s: 'replicaset-pressure',
  'actions.0.apply.replicas': '500',
  'cluster.client_qps': '0',
  'actions.1.delete_pods.count': '400',
  until_ms: '120000',
  speed: '10',
}).toString();

/** The largest scenario the page accepts (tests/e2e/support.mjs), played from frame 0 like the 500-replica run; it never reaches its end while recording. */
export const LARGEST_QUERY = `z=${pack(LARGEST_ACCEPTED)}&speed=10`;

