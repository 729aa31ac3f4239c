"""The component in wasmtime-py: one instance for the whole run, one call per
line of JSON on stdin, its outcome as one line of JSON on stdout.

    python_host.py target/component/user-management-client.wasm
    > {"op":"count","options":{"baseUrl":"http://127.0.0.1:8080","headers":[["x-tenant","acme"]]},"params":{"active":"true"}}
    < {"ok":{"status":200,"totalUsers":691}}

The JSON shapes are the ones jco gives JavaScript (records as objects with
camelCase keys, enums as strings, `option` as a missing key), so one table
(cases.json) drives every host. A call answers {"ok": ...}, {"error": {...}}
(the users-error), or {"trap": "..."} when the instance trapped.
"""

import json
import sys

from wasmtime import Config, Engine, Store, WasiConfig
from wasmtime.component import Component, Linker, Record

USERS = "user-management:client/users@0.1.0"


def record(fields):
    """A WIT record: its fields as attributes named as in the WIT (kebab-case)."""
    value = Record()
    for name, field in fields.items():
        setattr(value, name, field)
    return value


def options(given):
    return record({
        "base-url": given["baseUrl"],
        "headers": [tuple(pair) for pair in given.get("headers", [])],
        "timeout-ms": given.get("timeoutMs"),
        "retries": given.get("retries"),
        "max-body-bytes": given.get("maxBodyBytes"),
    })


def count_params(given):
    return record({"query": given.get("query"), "active": given.get("active")})


def list_params(given):
    return record({
        "query": given.get("query"),
        "active": given.get("active"),
        "page": given.get("page"),
        "page-size": given.get("pageSize"),
    })


def camel(name):
    head, *rest = name.split("-")
    return head + "".join(part.title() for part in rest)


def plain(value):
    """A record as a JSON object with camelCase keys and no `none` fields."""
    if isinstance(value, Record):
        return {camel(k): plain(v) for k, v in vars(value).items() if v is not None}
    return value


def main():
    engine = Engine(Config())
    component = Component.from_file(engine, sys.argv[1])
    linker = Linker(engine)
    linker.add_wasip2()
    linker.add_wasi_http()
    store = Store(engine)
    wasi = WasiConfig()
    wasi.inherit_stderr()
    store.set_wasi(wasi)
    store.set_wasi_http()
    instance = linker.instantiate(store, component)
    users = instance.get_export_index(store, USERS)
    count_users = instance.get_func(store, instance.get_export_index(store, "count-users", users))
    list_users = instance.get_func(store, instance.get_export_index(store, "list-users", users))

    for line in sys.stdin:
        call = json.loads(line)
        try:
            if call["op"] == "count":
                outcome = count_users(store, options(call["options"]), count_params(call["params"]))
                answer = {"ok": plain(outcome.payload)} if outcome.tag == "ok" else {"error": plain(outcome.payload)}
            else:
                # result<string, users-error>: a str is the ok case, a record the error.
                outcome = list_users(store, options(call["options"]), list_params(call["params"]))
                answer = {"error": plain(outcome)} if isinstance(outcome, Record) else {"ok": outcome}
        except Exception as error:  # a trap, or a value the host could not convert
            answer = {"trap": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
