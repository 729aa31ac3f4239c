"""Counts the active users of a User Management API from Python, through the
client component (wasm32-wasip2) run by wasmtime-py.

    pip install wasmtime==50.0.1
    python count_users.py user-management-client.wasm http://127.0.0.1:8080

Prints {"status": 200, "totalUsers": N}, or the client's error and exits 1.
"""

import json
import sys

from wasmtime import Engine, Store, WasiConfig
from wasmtime.component import Component, Linker, Record


def record(**fields):
    """A WIT record; its fields are named as in the WIT (kebab-case)."""
    value = Record()
    for name, field in fields.items():
        setattr(value, name.replace("_", "-"), field)
    return value


def main():
    wasm, base_url = sys.argv[1], sys.argv[2]
    engine = Engine()
    linker = Linker(engine)
    linker.add_wasip2()
    linker.add_wasi_http()
    store = Store(engine)
    store.set_wasi(WasiConfig())
    store.set_wasi_http()
    instance = linker.instantiate(store, Component.from_file(engine, wasm))

    users = instance.get_export_index(store, "user-management:client/users@0.1.0")
    count_users = instance.get_func(store, instance.get_export_index(store, "count-users", users))

    # `option` fields take None or the value; enums are their case's name.
    options = record(base_url=base_url, headers=[("x-tenant", "acme")], timeout_ms=5000, retries=None, max_body_bytes=None)
    params = record(query=None, active="true")
    outcome = count_users(store, options, params)  # result<count-envelope, users-error>

    if outcome.tag == "err":
        error = outcome.payload
        print(f"{error.kind}: {error.message}", file=sys.stderr)
        sys.exit(1)
    envelope = outcome.payload
    print(json.dumps({"status": envelope.status, "totalUsers": getattr(envelope, "total-users")}))


if __name__ == "__main__":
    main()
