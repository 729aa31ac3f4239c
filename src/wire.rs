//! The wire names of the model's enums, read from their serde derives: the
//! `#[serde(rename_all = ...)]` attributes are the only place a name such as
//! `"same-origin"` or `"validation"` is written.
//!
//! serde's derived `Deserialize` of a unit-variant enum, asked for a name it
//! does not know, reports every name it knows, in declaration order. [`names`]
//! asks for the empty name and keeps that list; [`parse`] reads one name.

use std::fmt;

use serde::de::{self, value::StrDeserializer, DeserializeOwned};

/// The error [`parse`] and [`names`] deserialize with: it keeps the list of
/// names an unknown-variant error carries, and nothing else.
#[derive(Debug)]
struct Refused(&'static [&'static str]);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a wire name")
    }
}

impl std::error::Error for Refused {}

impl de::Error for Refused {
    fn custom<T: fmt::Display>(_: T) -> Refused {
        Refused(&[])
    }

    fn unknown_variant(_: &str, expected: &'static [&'static str]) -> Refused {
        Refused(expected)
    }
}

/// The variant of `T` whose wire name is `text`, if there is one.
pub(crate) fn parse<T: DeserializeOwned>(text: &str) -> Option<T> {
    T::deserialize(StrDeserializer::<Refused>::new(text)).ok()
}

/// The wire names of `T`'s variants, in declaration order.
pub(crate) fn names<T: DeserializeOwned>() -> &'static [&'static str] {
    match T::deserialize(StrDeserializer::<Refused>::new("")) {
        Ok(_) => &[],
        Err(Refused(names)) => names,
    }
}

/// The wire name of a fieldless enum's variant, given its index in
/// declaration order (`variant as usize`).
pub(crate) fn name<T: DeserializeOwned>(index: usize) -> &'static str {
    names::<T>().get(index).copied().unwrap_or_default()
}

/// The names as a message lists the allowed values: `"a", "b" or "c"`, or,
/// with `more`, `"a", "b", "c" or {more}`.
pub(crate) fn one_of(names: &[&str], more: Option<&str>) -> String {
    let count = names.len() + usize::from(more.is_some());
    let mut text = String::new();
    for i in 0..count {
        if i > 0 {
            text.push_str(if i + 1 == count { " or " } else { ", " });
        }
        match names.get(i) {
            Some(name) => {
                text.push('"');
                text.push_str(name);
                text.push('"');
            }
            None => text.push_str(more.unwrap_or_default()),
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use crate::model::{Active, Credentials, ParamsIn};

    #[test]
    fn names_come_from_the_serde_attributes() {
        assert_eq!(names::<ParamsIn>(), ["body", "query", "form"]);
        assert_eq!(names::<Credentials>(), ["omit", "same-origin", "include"]);
        assert_eq!(names::<Active>(), ["all", "true", "false"]);
        assert_eq!(name::<ErrorKind>(ErrorKind::Decode as usize), "decode");
    }

    #[test]
    fn parses_exactly_the_names() {
        assert_eq!(parse::<ParamsIn>("form"), Some(ParamsIn::Form));
        assert_eq!(
            parse::<Credentials>("same-origin"),
            Some(Credentials::SameOrigin)
        );
        for bad in ["", "Form", " form", "sameOrigin", "same_origin"] {
            assert_eq!(parse::<ParamsIn>(bad), None, "{bad:?}");
            assert_eq!(parse::<Credentials>(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn lists_names_as_messages_do() {
        assert_eq!(
            one_of(names::<ParamsIn>(), None),
            "\"body\", \"query\" or \"form\""
        );
        assert_eq!(
            one_of(names::<Active>(), Some("a boolean")),
            "\"all\", \"true\", \"false\" or a boolean"
        );
        assert_eq!(one_of(&["x"], None), "\"x\"");
    }
}
