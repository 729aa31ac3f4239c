//! A wasmtime host for the client component: it instantiates the component
//! once, then reads one call per line on stdin and writes its outcome as one
//! line of JSON on stdout, every call on the same instance.
//!
//! ```text
//! user-management-component-host target/component/user-management-client.wasm
//! > {"op":"count","options":{"baseUrl":"http://127.0.0.1:8080","headers":[["x-tenant","acme"]],"timeoutMs":5000},"params":{"active":"true"}}
//! < {"ok":{"status":200,"totalUsers":691}}
//! ```
//!
//! The JSON shapes are the ones jco gives JavaScript (records as objects with
//! camelCase keys, enums as strings, `option` as a missing key), so one test
//! table drives both hosts. A call answers `{"ok": ...}`, `{"error": {...}}`
//! (the `users-error`), or `{"trap": "..."}` when the instance trapped.

use std::io::{BufRead, Write};

use anyhow::{anyhow, bail, Context, Result};
use serde_json::{json, Map, Value};
use wasmtime::component::{Component, Linker, ResourceTable};
use wasmtime::{Config, Engine, Store};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
use wasmtime_wasi_http::{WasiHttpCtx, WasiHttpCtxView, WasiHttpView};

wasmtime::component::bindgen!({ path: "../../wit", world: "client" });

use exports::user_management::client::users::{
    Active, ClientOptions, CountParams, ErrorKind, ListParams, UsersError,
};

/// What the store holds: WASI, `wasi:http`, and their resources.
struct State {
    wasi: WasiCtx,
    http: WasiHttpCtx,
    table: ResourceTable,
}

impl WasiView for State {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl WasiHttpView for State {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView {
            ctx: &mut self.http,
            table: &mut self.table,
            hooks: Default::default(),
        }
    }
}

fn main() -> Result<()> {
    let path = std::env::args()
        .nth(1)
        .context("usage: user-management-component-host COMPONENT.wasm")?;
    let engine = Engine::new(&Config::new())?;
    let component = Component::from_file(&engine, &path)
        .map_err(|error| anyhow!("loading the component {path}: {error:?}"))?;
    let mut linker = Linker::<State>::new(&engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
    wasmtime_wasi_http::p2::add_only_http_to_linker_sync(&mut linker)?;
    let mut store = Store::new(
        &engine,
        State {
            wasi: WasiCtx::builder().inherit_stderr().build(),
            http: WasiHttpCtx::new(),
            table: ResourceTable::new(),
        },
    );
    let client = Client::instantiate(&mut store, &component, &linker)?;
    let users = client.user_management_client_users();

    let stdout = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let request: Value = serde_json::from_str(&line).context("a call is one JSON object")?;
        let options = client_options(&request["options"])?;
        let params = &request["params"];
        let outcome = match request["op"].as_str() {
            Some("count") => users
                .call_count_users(&mut store, &options, &count_params(params)?)
                .map(|result| {
                    result.map(|envelope| {
                        json!({ "status": envelope.status, "totalUsers": envelope.total_users })
                    })
                }),
            Some("list") => users
                .call_list_users(&mut store, &options, &list_params(params)?)
                .map(|result| result.map(Value::String)),
            other => bail!("op must be \"count\" or \"list\"; got {other:?}"),
        };
        let answer = match outcome {
            Ok(Ok(value)) => json!({ "ok": value }),
            Ok(Err(error)) => json!({ "error": users_error(&error) }),
            Err(trap) => json!({ "trap": format!("{trap:#}") }),
        };
        let mut out = stdout.lock();
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
    Ok(())
}

fn client_options(value: &Value) -> Result<ClientOptions> {
    let headers = match value.get("headers") {
        None => Vec::new(),
        Some(list) => list
            .as_array()
            .context("headers is a list of [name, value]")?
            .iter()
            .map(|pair| match pair.as_array().map(Vec::as_slice) {
                Some([Value::String(name), Value::String(value)]) => {
                    Ok((name.clone(), value.clone()))
                }
                _ => Err(anyhow!("a header is [name, value]; got {pair}")),
            })
            .collect::<Result<_>>()?,
    };
    Ok(ClientOptions {
        base_url: text(value, "baseUrl")?.context("options.baseUrl is required")?,
        headers,
        timeout_ms: number(value, "timeoutMs")?,
        retries: number(value, "retries")?,
    })
}

fn count_params(value: &Value) -> Result<CountParams> {
    Ok(CountParams {
        query: text(value, "query")?,
        active: active(value)?,
    })
}

fn list_params(value: &Value) -> Result<ListParams> {
    Ok(ListParams {
        query: text(value, "query")?,
        active: active(value)?,
        page: number(value, "page")?,
        page_size: number(value, "pageSize")?,
    })
}

fn active(value: &Value) -> Result<Option<Active>> {
    Ok(match text(value, "active")?.as_deref() {
        None => None,
        Some("all") => Some(Active::All),
        Some("true") => Some(Active::True),
        Some("false") => Some(Active::False),
        Some(other) => bail!("active is \"all\", \"true\" or \"false\"; got {other:?}"),
    })
}

fn text(object: &Value, key: &str) -> Result<Option<String>> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => bail!("{key} is a string; got {other}"),
    }
}

fn number(object: &Value, key: &str) -> Result<Option<u32>> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(n) => n
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .map(Some)
            .with_context(|| format!("{key} is a u32; got {n}")),
    }
}

fn users_error(error: &UsersError) -> Value {
    let kind = match error.kind {
        ErrorKind::Validation => "validation",
        ErrorKind::Network => "network",
        ErrorKind::Timeout => "timeout",
        ErrorKind::Aborted => "aborted",
        ErrorKind::Http => "http",
        ErrorKind::Decode => "decode",
        ErrorKind::Api => "api",
    };
    let mut out = Map::new();
    out.insert("kind".into(), kind.into());
    out.insert("message".into(), error.message.clone().into());
    if let Some(param) = &error.param {
        out.insert("param".into(), param.clone().into());
    }
    if let Some(status) = error.status {
        out.insert("status".into(), status.into());
    }
    if let Some(http_status) = error.http_status {
        out.insert("httpStatus".into(), http_status.into());
    }
    if let Some(body) = &error.body {
        out.insert("body".into(), body.clone().into());
    }
    Value::Object(out)
}
