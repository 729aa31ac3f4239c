"use client";
// Runs in the browser after hydration (Next also renders it once on the
// server, where it only shows the placeholder: effects do not run there).
import { useEffect, useState } from "react";
import { summary } from "../summary.js";

export default function ClientSummary({ baseUrl }) {
  const [state, setState] = useState(null);
  useEffect(() => {
    summary(baseUrl).then(
      (s) => {
        window.summary = s;
        setState(s);
      },
      (err) => setState({ error: `${err.kind}: ${err.message}` }),
    );
  }, [baseUrl]);
  return (
    <>
      <p>
        Active users: <output id="active">{state ? String(state.totalActive) : "…"}</output>
      </p>
      <pre id="summary">{state ? JSON.stringify(state) : ""}</pre>
    </>
  );
}
