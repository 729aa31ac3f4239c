//! A `match` on `Operation` without a wildcard arm: `Operation` is
//! `#[non_exhaustive]`, so outside the crate this must fail with E0004
//! (`scripts/reqwest-app.sh` builds it and reads rustc's error).

use user_management_client::Operation;

fn name(operation: Operation) -> &'static str {
    match operation {
        Operation::Count => "count",
        Operation::List => "list",
    }
}

fn main() {
    println!("{}", name(Operation::Count));
}
