// Nothing here is for user-management-client: the package needs no setting.
// `output: "standalone"` is the deployment the check runs (Next's file
// tracing must ship the package); the two roots only say that this app is
// its own project although it sits inside another one (this repository,
// with its own package-lock.json), so Next does not take that for the root.
const root = import.meta.dirname;

export default {
  output: "standalone",
  outputFileTracingRoot: root,
  turbopack: { root },
};
