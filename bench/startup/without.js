// The page's own module, importing nothing: when it starts running.
window.started = performance.now();
