//! `listPages`' pages, one list call each: the gate (`npm/gate.js`) makes
//! them the async iterable users get, asking `listPage` for one page after
//! the other with where the walk stands (the next page, the users seen).
//! The rule of where the walk goes is the library's ([`Walk`],
//! [`PageView`]); each page's call is the list call, with every rule it has
//! (validation, retries, hooks, the signal). Nothing of a walk stays in
//! the `.wasm` between its pages.

use js_sys::{Array, Object, Reflect};
use user_management_client::__private::options::Naming;
use user_management_client::__private::pages::{PageView, Walk};
use user_management_client::__private::value::Value;
use user_management_client::__private::Rejection;
use user_management_client::Error;
use wasm_bindgen::prelude::*;

use crate::error;

/// Where the walk stands for a page: from the checked params' `page` and
/// `pageSize` (the first page, `page` 0), else at `page` with `seen` users
/// before it. Sets the params' `page` to the page to fetch.
pub fn walk_at(params: &Object, page: f64, seen: f64) -> Result<Walk, Error> {
    let field = |name: &str| Value::of(&Reflect::get(params, &name.into()).unwrap_or_default());
    let mut walk = Walk::start(&field("page"), &field("pageSize"), Naming::Js)?;
    if page >= 1.0 {
        // `as` saturates; these are the numbers `settle` handed out.
        walk.page = page as u64;
        walk.seen = seen as u64;
    }
    // Cannot fail: a plain object `read::params` made.
    let _ = Reflect::set(params, &"page".into(), &JsValue::from(walk.page as f64));
    Ok(walk)
}

/// A page's call settled with `outcome`: `[envelope, page, seen]`, the page
/// to fetch next and the users seen before it (`page` 0: that was the
/// last), once the result is checked as a page.
pub fn settle(walk: Walk, outcome: Result<JsValue, Rejection>) -> Result<JsValue, JsValue> {
    let (envelope, page) = outcome
        .and_then(|envelope| {
            let result = Reflect::get(&envelope, &"result".into()).unwrap_or_default();
            Ok((envelope, read_page(&result)?))
        })
        .map_err(error::to_js)?;
    let next = walk.after(&page);
    let number = |n: Option<u64>| JsValue::from(n.unwrap_or(0) as f64);
    let at = (number(next.map(|w| w.page)), number(next.map(|w| w.seen)));
    Ok(Array::of3(&envelope, &at.0, &at.1).into())
}

/// What the walk needs of a page's result, checked by the library.
fn read_page(result: &JsValue) -> Result<PageView, Error> {
    let field = |name: &str| Reflect::get(result, &name.into()).unwrap_or_default();
    let users = field("users");
    let users = Array::is_array(&users).then(|| u64::from(users.unchecked_ref::<Array>().length()));
    PageView::check(
        users,
        field("totalUsers").as_f64(),
        field("pageSize").as_f64(),
        Naming::Js,
    )
}
