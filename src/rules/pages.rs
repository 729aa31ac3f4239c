//! The walk through the list's pages (the JS API's `listPages`): where it
//! starts, what it needs of each page, and whether another page follows.
//!
//! The pages have the reference server's shape ([`UserPage`]: `users`,
//! `totalUsers`, `page`, `pageSize`). A walk starts at the `page` asked for
//! (1 when not given) and ends after a page that is empty, a page with
//! fewer users than `pageSize` (the one asked for, else the one the page
//! reports), or once `totalUsers` is reached: counted by the users seen,
//! and by the position of the page (`(page - 1) * pageSize` users before
//! it), so that a walk starting past page 1 ends on its last page too.
//! Plain numbers in, plain numbers out: the transport and the JS layer read
//! the page, the rule decides.

use crate::error::{Error, ErrorKind};
use crate::model::UserPage;
use crate::rules::options::Naming;
use crate::rules::value::MAX_SAFE_INTEGER;
use crate::rules::value::{is_whole, Value};

/// What a walk needs of one page, read from its result and checked by
/// [`PageView::check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageView {
    /// How many users the page holds (the length of `users`).
    pub users: u64,
    /// `totalUsers`: the users matching, across all pages.
    pub total_users: u64,
    /// The page's own `pageSize`, where it is a whole number from 1 on.
    pub page_size: Option<u64>,
}

impl PageView {
    /// Checks a page's result from what a transport read of it: the
    /// length of its `users` where that is an array, and its `totalUsers`
    /// and `pageSize` where they are numbers (a result that is not an
    /// object has none of them). A result that is not a page (no `users`
    /// array, no whole `totalUsers` from 0 to 2^53 - 1) is a `decode` error
    /// saying what the walk needs.
    pub fn check(
        users: Option<u64>,
        total_users: Option<f64>,
        page_size: Option<f64>,
        naming: Naming,
    ) -> Result<PageView, Error> {
        let whole_from = |n: Option<f64>, least: f64| {
            n.filter(|&n| is_whole(n) && (least..=MAX_SAFE_INTEGER).contains(&n))
                .map(|n| n as u64)
        };
        match (users, whole_from(total_users, 0.0)) {
            (Some(users), Some(total_users)) => Ok(PageView {
                users,
                total_users,
                page_size: whole_from(page_size, 1.0),
            }),
            _ => Err(Error::new(
                ErrorKind::Decode,
                format!(
                    "{} needs each result to be a page: an object with a users array \
                     and a whole totalUsers from 0 to 2^53 - 1",
                    naming.list_pages()
                ),
            )
            .with_status(Some(200))),
        }
    }

    /// A page's result as serde_json reads it, checked as [`PageView::check`]
    /// checks it.
    pub fn of_json(result: &serde_json::Value, naming: Naming) -> Result<PageView, Error> {
        let number = |name| result.get(name).and_then(serde_json::Value::as_f64);
        let users = result
            .get("users")
            .and_then(serde_json::Value::as_array)
            .map(|users| users.len() as u64);
        PageView::check(users, number("totalUsers"), number("pageSize"), naming)
    }
}

/// A [`UserPage`] is a page by its type.
impl From<&UserPage> for PageView {
    fn from(page: &UserPage) -> PageView {
        PageView {
            users: page.users.len() as u64,
            total_users: page.total_users,
            page_size: (page.page_size >= 1).then_some(page.page_size),
        }
    }
}

/// Where a walk stands: the page to fetch next, the `pageSize` asked for,
/// and the users seen on the pages before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walk {
    /// The page to fetch next (sent as `page`).
    pub page: u64,
    /// The `pageSize` asked for, if any (sent as the caller gave it).
    pub page_size: Option<u64>,
    /// The users on the pages fetched so far.
    pub seen: u64,
}

impl Walk {
    /// A walk from `page` (1 when not given) with `page_size` asked for:
    /// each, where given, a whole number from 1 to 2^53 - 1, else a
    /// `validation` error naming it.
    pub fn new(page: Option<u64>, page_size: Option<u64>, naming: Naming) -> Result<Walk, Error> {
        let number = |n: Option<u64>| n.map_or(Value::Undefined, |n| Value::Number(n as f64));
        Walk::start(&number(page), &number(page_size), naming)
    }

    /// [`Walk::new`] from the params' `page` and `pageSize` as a JS caller
    /// gives them: `undefined` or `null` (not given), or a number.
    pub fn start(page: &Value, page_size: &Value, naming: Naming) -> Result<Walk, Error> {
        let read = |param: &str, value: &Value| match value.as_integer() {
            _ if value.is_missing() => Ok(None),
            Some(n) if (1.0..=MAX_SAFE_INTEGER).contains(&n) => Ok(Some(n as u64)),
            _ => Err(Error::invalid(
                param,
                "a whole number from 1 to 2^53 - 1",
                &value.shown(),
            )),
        };
        Ok(Walk {
            page: read("page", page)?.unwrap_or(1),
            page_size: read(naming.page_size(), page_size)?,
            seen: 0,
        })
    }

    /// The walk after `page`, the page at [`Walk::page`]: where it goes
    /// next, or `None` when that page was the last.
    pub fn after(self, page: &PageView) -> Option<Walk> {
        let seen = self.seen.saturating_add(page.users);
        let size = self.page_size.or(page.page_size);
        let short = size.is_some_and(|size| page.users < size);
        // In f64, as JS counts: the pages before this one may hold more
        // users than u64 does.
        let position = size.map_or(0.0, |size| {
            self.page.saturating_sub(1) as f64 * size as f64 + page.users as f64
        });
        let total = page.total_users as f64;
        let reached = seen >= page.total_users || position >= total;
        let last = page.users == 0 || short || reached || self.page as f64 >= MAX_SAFE_INTEGER;
        (!last).then_some(Walk {
            page: self.page + 1,
            page_size: self.page_size,
            seen,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn view(users: u64, total_users: u64, page_size: Option<u64>) -> PageView {
        PageView {
            users,
            total_users,
            page_size,
        }
    }

    fn walk(page: u64, page_size: Option<u64>, seen: u64) -> Walk {
        Walk {
            page,
            page_size,
            seen,
        }
    }

    /// Every page a walk fetches, against a server holding `total` users
    /// that answers `pageSize` `served` (its own default where none is
    /// asked for), from `start`.
    fn pages_fetched(total: u64, served: u64, start: Walk) -> Vec<u64> {
        let mut fetched = Vec::new();
        let mut next = Some(start);
        while let Some(at) = next {
            fetched.push(at.page);
            let size = at.page_size.unwrap_or(served);
            let before = (at.page - 1) * size;
            let users = total.saturating_sub(before).min(size);
            next = at.after(&view(users, total, Some(size)));
            assert!(fetched.len() < 1000, "the walk does not end");
        }
        fetched
    }

    #[test]
    fn a_walk_fetches_each_page_once_and_no_more() {
        let from_one = |size| walk(1, Some(size), 0);
        // A short last page.
        assert_eq!(pages_fetched(691, 20, from_one(100)), [1, 2, 3, 4, 5, 6, 7]);
        // A full last page: totalUsers is reached, no empty page after it.
        assert_eq!(pages_fetched(700, 20, from_one(100)), [1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(pages_fetched(1, 20, from_one(1)), [1]);
        // Nothing matches: the one empty page.
        assert_eq!(pages_fetched(0, 20, from_one(100)), [1]);
        // From page 3: the position counts the pages before it.
        assert_eq!(pages_fetched(500, 20, walk(3, Some(100), 0)), [3, 4, 5]);
        // Past the end: one empty page.
        assert_eq!(pages_fetched(500, 20, walk(9, Some(100), 0)), [9]);
    }

    #[test]
    fn without_a_page_size_the_page_s_own_counts() {
        let start = walk(1, None, 0);
        assert_eq!(pages_fetched(45, 20, start), [1, 2, 3]);
        assert_eq!(pages_fetched(40, 20, start), [1, 2]);
        // A page that reports no pageSize: only empty pages and the total end it.
        let next = start.after(&view(20, 45, None));
        assert_eq!(next, Some(walk(2, None, 20)));
        assert_eq!(
            walk(2, None, 20).after(&view(3, 45, None)),
            Some(walk(3, None, 23))
        );
        assert_eq!(walk(3, None, 23).after(&view(0, 45, None)), None);
        assert_eq!(walk(3, None, 40).after(&view(5, 45, None)), None);
    }

    #[test]
    fn each_rule_ends_the_walk_alone() {
        // Empty, though the total is not reached.
        assert_eq!(walk(2, Some(10), 10).after(&view(0, 100, Some(10))), None);
        // Short, though the total is not reached.
        assert_eq!(walk(2, Some(10), 10).after(&view(9, 100, Some(10))), None);
        // Short by the page size asked for, though the page reports a smaller one.
        assert_eq!(walk(1, Some(10), 0).after(&view(5, 100, Some(5))), None);
        // The total reached by the users seen (a server whose pages do not
        // line up with their numbers), and by the position.
        assert_eq!(walk(1, Some(10), 90).after(&view(10, 100, Some(10))), None);
        assert_eq!(walk(10, Some(10), 0).after(&view(10, 100, Some(10))), None);
        // None of them: the next page, the users counted.
        assert_eq!(
            walk(2, Some(10), 10).after(&view(10, 100, Some(10))),
            Some(walk(3, Some(10), 20))
        );
        // A server whose total is off: full pages go on up to it, then stop.
        assert_eq!(
            walk(1, Some(10), 0).after(&view(10, 11, Some(10))),
            Some(walk(2, Some(10), 10))
        );
        // The last page a JS number can name.
        let last = MAX_SAFE_INTEGER as u64;
        assert_eq!(
            walk(last, Some(1), 0).after(&view(1, u64::MAX, Some(1))),
            None
        );
        assert_eq!(
            walk(last - 1, Some(1), 0).after(&view(1, u64::MAX, Some(1))),
            Some(walk(last, Some(1), 1))
        );
    }

    #[test]
    fn a_walk_starts_at_page_one_unless_told() {
        let js = Naming::Js;
        let missing = Value::Undefined;
        assert_eq!(
            Walk::start(&missing, &Value::Null, js).ok(),
            Some(walk(1, None, 0))
        );
        let (three, hundred) = (Value::Number(3.0), Value::Number(100.0));
        assert_eq!(
            Walk::start(&three, &hundred, js).ok(),
            Some(walk(3, Some(100), 0))
        );
        assert_eq!(
            Walk::new(None, Some(5), Naming::Rust).ok(),
            Some(walk(1, Some(5), 0))
        );
    }

    #[test]
    fn page_and_page_size_must_be_whole_numbers_from_one() {
        let bad = [
            Value::Number(0.0),
            Value::Number(-1.0),
            Value::Number(1.5),
            Value::Number(f64::NAN),
            Value::Number(MAX_SAFE_INTEGER + 1.0),
            Value::Str("2".into()),
            Value::Bool(true),
            Value::Object,
        ];
        for value in bad {
            let err = Walk::start(&value, &Value::Undefined, Naming::Js).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Validation);
            assert_eq!(err.param(), Some("page"));
            assert_eq!(
                err.message(),
                format!(
                    "page must be a whole number from 1 to 2^53 - 1; got {}",
                    value.shown()
                )
            );
            let err = Walk::start(&Value::Undefined, &value, Naming::Js).unwrap_err();
            assert_eq!(err.param(), Some("pageSize"), "{value:?}");
        }
        let err = Walk::new(Some(1), Some(0), Naming::Rust).unwrap_err();
        assert_eq!(err.param(), Some("page_size"));
        assert_eq!(
            err.message(),
            "page_size must be a whole number from 1 to 2^53 - 1; got 0"
        );
        assert!(Walk::new(Some(0), None, Naming::Rust).is_err());
        // 2^53 itself: as a JS number, it is 2^53 - 1 + 1.
        assert!(Walk::new(Some(1 << 53), None, Naming::Rust).is_err());
        assert!(Walk::new(Some((1 << 53) - 1), None, Naming::Rust).is_ok());
    }

    #[test]
    fn a_page_is_read_from_its_result() {
        let page = json!({ "users": [{ "id": 1 }, { "id": 2 }], "totalUsers": 9, "page": 1, "pageSize": 2 });
        assert_eq!(
            PageView::of_json(&page, Naming::Js).ok(),
            Some(view(2, 9, Some(2)))
        );
        // pageSize is not needed: one that is not a whole number from 1 is not used.
        for size in [json!(null), json!(0), json!("2"), json!(1.5)] {
            let page = json!({ "users": [], "totalUsers": 0, "pageSize": size });
            assert_eq!(
                PageView::of_json(&page, Naming::Js).ok(),
                Some(view(0, 0, None))
            );
        }
        let typed: UserPage = serde_json::from_value(page.clone()).unwrap();
        assert_eq!(PageView::from(&typed), view(2, 9, Some(2)));
    }

    #[test]
    fn a_result_that_is_not_a_page_is_a_decode_error_saying_what_is_needed() {
        for result in [
            json!([1, 2]),
            json!(null),
            json!({ "totalUsers": 3 }),
            json!({ "users": {}, "totalUsers": 3 }),
            json!({ "users": [] }),
            json!({ "users": [], "totalUsers": 1.5 }),
            json!({ "users": [], "totalUsers": -1 }),
            json!({ "users": [], "totalUsers": 9_007_199_254_740_992.0 }),
            json!({ "users": [], "totalUsers": "3" }),
        ] {
            let err = PageView::of_json(&result, Naming::Js).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Decode, "{result}");
            assert_eq!(err.api_status(), Some(200));
            assert_eq!(
                err.message(),
                "listPages needs each result to be a page: an object with a users array \
                 and a whole totalUsers from 0 to 2^53 - 1"
            );
        }
        let err = PageView::of_json(&json!(7), Naming::Rust).unwrap_err();
        assert!(
            err.message().starts_with("pages needs each result"),
            "{}",
            err.message()
        );
        let largest = json!({ "users": [], "totalUsers": 9_007_199_254_740_991_u64 });
        assert!(PageView::of_json(&largest, Naming::Js).is_ok());
    }
}
