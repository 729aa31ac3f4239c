//! The data model, shared by the Rust API and the JS layer: what a call
//! sends ([`CountParams`], [`ListParams`]) and what it gets back
//! ([`Envelope`], [`Count`], and the reference server's [`UserPage`]).
//! serde types with camelCase wire names, so that serde-wasm-bindgen moves
//! them across the JS boundary.
//!
//! The enums' wire names are written once each, in their [`Wire`] impl's
//! `match`; each derives `Deserialize` as a name (`variant_identifier`,
//! under `#[serde(rename_all = ...)]`, which a test in `wire` holds to the
//! same names) and serializes as its wire name.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, value::StrDeserializer, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use crate::rules::value::MAX_SAFE_INTEGER;
use crate::wire::{self, Wire};

/// Which users `active` selects. On the wire: `"all"`, `"true"`, `"false"`;
/// read from those or from a boolean (the contract's `Active | boolean`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase", remote = "Self", variant_identifier)]
pub enum Active {
    /// Active and inactive users.
    All,
    /// Active users only.
    True,
    /// Inactive users only.
    False,
}

impl Active {
    /// The wire name: `"all"`, `"true"` or `"false"`.
    pub fn as_str(self) -> &'static str {
        self.name()
    }
}

impl Wire for Active {
    const ALL: &'static [Active] = &[Active::All, Active::True, Active::False];
    const NAMES: &'static [&'static str] = &["all", "true", "false"];

    fn name(self) -> &'static str {
        match self {
            Active::All => "all",
            Active::True => "true",
            Active::False => "false",
        }
    }
}

impl From<bool> for Active {
    fn from(value: bool) -> Active {
        if value {
            Active::True
        } else {
            Active::False
        }
    }
}

impl Serialize for Active {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Accepts the three names and booleans.
impl<'de> Deserialize<'de> for Active {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Active, D::Error> {
        struct ActiveVisitor;
        impl Visitor<'_> for ActiveVisitor {
            type Value = Active;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(&active_expected())
            }
            fn visit_bool<E: de::Error>(self, value: bool) -> Result<Active, E> {
                Ok(Active::from(value))
            }
            fn visit_str<E: de::Error>(self, value: &str) -> Result<Active, E> {
                Active::deserialize(StrDeserializer::new(value))
            }
        }
        deserializer.deserialize_any(ActiveVisitor)
    }
}

/// The allowed `active` values, as messages show them:
/// `"all", "true", "false" or a boolean`.
pub(crate) fn active_expected() -> String {
    wire::one_of(Active::NAMES, Some("a boolean"))
}

/// The params of `count_users`: the only two the API takes.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(
    not(all(target_arch = "wasm32", not(target_os = "wasi"))),
    derive(Serialize)
)]
#[serde(rename_all = "camelCase")]
pub struct CountParams {
    /// Matched against usernames and phone values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// Which users to count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active: Option<Active>,
}

/// In a JS host, as a map, not a struct: through serde-wasm-bindgen's
/// `Serializer::json_compatible()` the two are the same object, but
/// serde-wasm-bindgen keeps a hash table of the JS strings of struct field
/// names, which would cost the package's `.wasm` more than it saves.
/// (`ListParams`, with its flattened `extra`, is a map already.) Every
/// other build derives the struct form, which serde_json writes alike and
/// which is the smaller there.
#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
impl Serialize for CountParams {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let len = usize::from(self.query.is_some()) + usize::from(self.active.is_some());
        let mut params = serializer.serialize_map(Some(len))?;
        if let Some(query) = &self.query {
            params.serialize_entry("query", query)?;
        }
        if let Some(active) = &self.active {
            params.serialize_entry("active", active)?;
        }
        params.end()
    }
}

/// The params of `list_users`. The spec does not show the list's params, so
/// besides `query` and `active` the usual paging pair is typed and any other
/// key goes in [`ListParams::extra`], with any JSON value, sent as given.
///
/// ```
/// use serde_json::json;
/// use user_management_client::ListParams;
///
/// let mut params = ListParams { page: Some(2), ..Default::default() };
/// params.extra.insert("sort".into(), json!("name"));
/// params.extra.insert("filter".into(), json!({ "role": ["admin", "owner"] }));
/// params.extra.insert("unsent".into(), json!(null));
/// assert_eq!(
///     serde_json::to_string(&params).unwrap(),
///     r#"{"page":2,"filter":{"role":["admin","owner"]},"sort":"name"}"#
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListParams {
    /// Matched against usernames and phone values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// Which users to list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active: Option<Active>,
    /// The page to return (sent as `page`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<u64>,
    /// Users per page (sent as `pageSize`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<u64>,
    /// Any other param, by its wire name, with any JSON value, as the JS
    /// API takes it and under the same rules: in a JSON body (`ParamsIn::Body`)
    /// anything, in a query string or a form strings, numbers and booleans
    /// only (anything else is a `validation` error). `null` is not sent.
    #[serde(flatten, serialize_with = "sent")]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// The extra params that are sent: all but the `null`s.
fn sent<S: Serializer>(
    extra: &BTreeMap<String, serde_json::Value>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(extra.iter().filter(|(_, value)| !value.is_null()))
}

/// A whole number as a JSON text may write it, `42`, `42.0` or `4.2e1`,
/// read as the platform's JSON parser reads it in a JS host (`42.0` is
/// 42): serde's own integers refuse a number written with a fraction or
/// an exponent. A number with a fraction, or past 2^53 - 1 where it is
/// written as a float, is refused.
fn whole<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    struct Whole;
    impl Visitor<'_> for Whole {
        type Value = i64;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a whole number")
        }
        fn visit_i64<E: de::Error>(self, n: i64) -> Result<i64, E> {
            Ok(n)
        }
        fn visit_u64<E: de::Error>(self, n: u64) -> Result<i64, E> {
            i64::try_from(n).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(n), &self))
        }
        fn visit_f64<E: de::Error>(self, n: f64) -> Result<i64, E> {
            if n.fract() == 0.0 && n.abs() <= MAX_SAFE_INTEGER {
                // Exact: a whole number within 2^53 is an i64.
                Ok(n as i64)
            } else {
                Err(E::invalid_value(de::Unexpected::Float(n), &self))
            }
        }
    }
    deserializer.deserialize_i64(Whole)
}

/// [`whole`], and not below 0.
fn whole_unsigned<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    let n = whole(deserializer)?;
    u64::try_from(n)
        .map_err(|_| de::Error::invalid_value(de::Unexpected::Signed(n), &"a whole number from 0"))
}

/// What every answer carries: `{ status, result }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Envelope<T> {
    /// The API's own status; 200 on success (the client rejects any other).
    #[serde(deserialize_with = "whole")]
    pub status: i64,
    /// The operation's result.
    pub result: T,
}

/// The result of a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Count {
    /// How many users match.
    #[serde(deserialize_with = "whole_unsigned")]
    pub total_users: u64,
}

/// A user as the reference server (`server/`, `openapi/`) lists it. The
/// spec does not show a user's fields: `id` is the one a page needs, and
/// every other field (the reference server's `username`, `phone`,
/// `active`, `createdAt`) is in [`User::fields`], by its wire name.
///
/// ```
/// use serde_json::json;
/// use user_management_client::User;
///
/// let user: User = serde_json::from_value(json!({ "id": 7, "username": "ann" })).unwrap();
/// assert_eq!(user.id, 7);
/// assert_eq!(user.fields["username"], "ann");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct User {
    /// The user's id.
    #[serde(deserialize_with = "whole_unsigned")]
    pub id: u64,
    /// Every other field, by its wire name.
    #[serde(flatten)]
    pub fields: BTreeMap<String, serde_json::Value>,
}

/// One page of the list as the reference server (`server/`, `openapi/`)
/// answers it: the spec does not show the list's shape, so `list_users`
/// stays generic, and this is the shape to name for the reference server
/// (`users`, `totalUsers`, `page`, `pageSize` on the wire).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserPage {
    /// This page's users.
    pub users: Vec<User>,
    /// The users matching the params, across all pages.
    #[serde(deserialize_with = "whole_unsigned")]
    pub total_users: u64,
    /// This page's number, from 1.
    #[serde(deserialize_with = "whole_unsigned")]
    pub page: u64,
    /// The page size the server used.
    #[serde(deserialize_with = "whole_unsigned")]
    pub page_size: u64,
}

/// Where params go (`paramsIn`). Default: [`ParamsIn::Body`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", variant_identifier)]
pub enum ParamsIn {
    /// A JSON object body, `Content-Type: application/json`.
    #[default]
    Body,
    /// The URL's query string; no body.
    Query,
    /// An `application/x-www-form-urlencoded` body.
    Form,
}

impl Serialize for ParamsIn {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl Wire for ParamsIn {
    const ALL: &'static [ParamsIn] = &[ParamsIn::Body, ParamsIn::Query, ParamsIn::Form];
    const NAMES: &'static [&'static str] = &["body", "query", "form"];

    fn name(self) -> &'static str {
        match self {
            ParamsIn::Body => "body",
            ParamsIn::Query => "query",
            ParamsIn::Form => "form",
        }
    }
}

impl ParamsIn {
    /// The `Content-Type` of the body this mode sends, if any.
    pub fn content_type(self) -> Option<&'static str> {
        match self {
            ParamsIn::Body => Some("application/json"),
            ParamsIn::Query => None,
            ParamsIn::Form => Some("application/x-www-form-urlencoded;charset=UTF-8"),
        }
    }
}

/// The `credentials` mode of `fetch`. Left unset, the platform's default
/// (`"same-origin"`) applies, and no member is sent: Cloudflare Workers
/// reject a `credentials` member.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case", variant_identifier)]
pub enum Credentials {
    /// Never send cookies.
    Omit,
    /// Cookies for same-origin requests.
    SameOrigin,
    /// Cookies for every request.
    Include,
}

impl Serialize for Credentials {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl Wire for Credentials {
    const ALL: &'static [Credentials] = &[
        Credentials::Omit,
        Credentials::SameOrigin,
        Credentials::Include,
    ];
    const NAMES: &'static [&'static str] = &["omit", "same-origin", "include"];

    fn name(self) -> &'static str {
        match self {
            Credentials::Omit => "omit",
            Credentials::SameOrigin => "same-origin",
            Credentials::Include => "include",
        }
    }
}

/// Which operation a call is; hooks name it `"count"` or `"list"`.
/// `#[non_exhaustive]`: an endpoint the API gains is a new variant, so a
/// `match` outside this crate ends with a wildcard arm:
///
/// ```
/// use user_management_client::Operation;
///
/// fn name(operation: Operation) -> &'static str {
///     match operation {
///         Operation::Count => "count",
///         Operation::List => "list",
///         _ => "another",
///     }
/// }
/// assert_eq!(name(Operation::List), "list");
/// ```
///
/// Without one it does not compile:
///
/// ```compile_fail,E0004
/// use user_management_client::Operation;
///
/// fn name(operation: Operation) -> &'static str {
///     match operation {
///         Operation::Count => "count",
///         Operation::List => "list",
///     }
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Operation {
    /// `POST /api/users/count`: takes only `query` and `active`.
    Count,
    /// `POST /api/users`: passes other keys through.
    List,
}

/// As a string, as the other enums: a unit variant would go through
/// serde-wasm-bindgen's hash table of static strings.
impl Serialize for Operation {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl Operation {
    /// Its name, as JS and the hook infos give it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Operation::Count => "count",
            Operation::List => "list",
        }
    }

    /// The path below the base URL.
    pub fn path(self) -> &'static str {
        match self {
            Operation::Count => "/api/users/count",
            Operation::List => "/api/users",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::value::{BoolDeserializer, Error as ValueError, StrDeserializer};

    #[test]
    fn whole_numbers_may_be_written_as_floats_and_nothing_else_passes() {
        let count = |text: &str| serde_json::from_str::<Envelope<Count>>(text);
        let good = count(r#"{"status":200.0,"result":{"totalUsers":4.2e1}}"#).unwrap();
        assert_eq!((good.status, good.result.total_users), (200, 42));
        let big = count(r#"{"status":2e2,"result":{"totalUsers":1.5e15}}"#).unwrap();
        assert_eq!(big.result.total_users, 1_500_000_000_000_000);
        for bad in [
            "42.5",
            "-1.0",
            "-1",
            "9007199254740992.0",
            "1e300",
            "\"42\"",
        ] {
            let text = format!(r#"{{"status":200,"result":{{"totalUsers":{bad}}}}}"#);
            assert!(count(&text).is_err(), "{bad}");
        }
        // A status below 0 is read as itself (the rules then judge it).
        let negative = count(r#"{"status":-5,"result":{"totalUsers":1}}"#).unwrap();
        assert_eq!(negative.status, -5);
        // A refusal says what was expected.
        let text = r#"{"status":"200","result":{"totalUsers":1}}"#;
        let refused = count(text).unwrap_err().to_string();
        assert!(refused.contains("expected a whole number"), "{refused}");
    }

    #[test]
    fn operations_are_named_as_js_and_the_hook_infos_name_them() {
        assert_eq!(Operation::Count.name(), "count");
        assert_eq!(Operation::List.name(), "list");
    }

    #[test]
    fn active_takes_three_strings_and_booleans() {
        for (text, active) in [
            ("all", Active::All),
            ("true", Active::True),
            ("false", Active::False),
        ] {
            let de = StrDeserializer::<ValueError>::new(text);
            assert_eq!(<Active as Deserialize>::deserialize(de).ok(), Some(active));
            assert_eq!(active.as_str(), text);
        }
        for b in [true, false] {
            let de = BoolDeserializer::<ValueError>::new(b);
            assert_eq!(
                <Active as Deserialize>::deserialize(de).ok(),
                Some(Active::from(b))
            );
        }
        for bad in ["TRUE", "yes", "", " all"] {
            let de = StrDeserializer::<ValueError>::new(bad);
            assert!(<Active as Deserialize>::deserialize(de).is_err(), "{bad}");
        }
    }

    #[test]
    fn wire_names() {
        assert_eq!(Operation::Count.path(), "/api/users/count");
        assert_eq!(ParamsIn::Query.content_type(), None);
        assert_eq!(ParamsIn::default(), ParamsIn::Body);
    }

    #[test]
    fn active_says_what_it_expects() {
        assert_eq!(
            active_expected(),
            "\"all\", \"true\", \"false\" or a boolean"
        );
        let de = serde::de::value::U64Deserializer::<ValueError>::new(5);
        let err = <Active as Deserialize>::deserialize(de).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid type: integer `5`, expected \"all\", \"true\", \"false\" or a boolean"
        );
    }
}
