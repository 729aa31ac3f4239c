// The page: starts the worker and posts it the API's URL at once (no
// handshake needed), then shows its answer. Vite, webpack and esbuild each
// follow `new URL("./worker.js", import.meta.url)` to the worker (esbuild
// when both files are entry points).
const api = new URLSearchParams(location.search).get("api") ?? "http://127.0.0.1:8080";
const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
worker.postMessage({ api });

window.summary = new Promise((resolve) => {
  worker.onmessage = ({ data }) => resolve(data);
  worker.onerror = (event) => resolve({ error: `worker: ${event.message}` });
}).then((s) => {
  document.getElementById("summary").textContent = JSON.stringify(s, null, 2);
  return s;
});
