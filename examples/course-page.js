// The host-page side of cachescope's postMessage API (docs/embedding.md):
// buttons with data-drive send a command to every iframe of their data-group,
// each iframe's reported frame is shown in the <output> named after it, and a
// lesson's answers and score in the <output data-score-of> named after it (a
// course platform would record the score: it is an xAPI result's shape).

const frames = [...document.querySelectorAll('iframe[data-name]')];

function send(iframe, message) {
  // The app is served from this page's origin; name it rather than '*'.
  iframe.contentWindow.postMessage(message, window.location.origin);
}

for (const button of document.querySelectorAll('button[data-drive]')) {
  button.addEventListener('click', () => {
    for (const iframe of frames.filter((f) => f.dataset.group === button.dataset.group)) {
      send(iframe, { cachescope: button.dataset.drive });
    }
  });
}

window.addEventListener('message', (event) => {
  if (event.origin !== window.location.origin) return;
  const iframe = frames.find((f) => f.contentWindow === event.source);
  const data = event.data;
  if (!iframe || typeof data !== 'object' || data === null) return;
  const out = document.querySelector(`output[data-frame-of="${iframe.dataset.name}"]`);
  const score = document.querySelector(`output[data-score-of="${iframe.dataset.name}"]`);
  if (data.cachescope === 'lesson' && score) {
    if (data.event === 'answered') {
      score.textContent = `step ${data.step}: you said ${data.response}, the run says ${data.expected} ${data.correct ? '✓' : '✗'}`;
    }
    if (data.event === 'completed') {
      const { raw, max, scaled } = data.score;
      score.textContent = `${raw} of ${max} (${Math.round(scaled * 100)}%)`;
    }
  }
  if (data.cachescope === 'ready' && out) out.textContent = 'ready';
  if (data.cachescope === 'frame' && out) {
    const broken = Object.entries(data.invariants)
      .filter(([, v]) => !v.held)
      .map(([name, v]) => `${name} broken at frame ${v.broken_at_frame}`);
    out.textContent = `frame ${data.frame}, t = ${(data.time_ms / 1000).toFixed(3)} s${broken.length ? ` · ${broken.join(', ')}` : ''}`;
  }
});
