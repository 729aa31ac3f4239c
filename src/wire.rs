//! The wire names of the model's fieldless enums: each enum's [`Wire`]
//! impl names its variants by `match` (and lists the names for messages),
//! and its serde attributes (`#[serde(rename_all = ...)]`, which derive its
//! `Deserialize`) must say the same; a test holds the three together for
//! every variant.

/// A fieldless enum with a wire name per variant.
pub(crate) trait Wire: Copy + PartialEq + 'static {
    /// Every variant, in declaration order.
    const ALL: &'static [Self];
    /// Their wire names, in the same order, as messages list them.
    const NAMES: &'static [&'static str];

    /// The variant's wire name (`"same-origin"`, `"validation"`).
    fn name(self) -> &'static str;
}

/// The variant of `T` whose wire name is `text`, if there is one.
pub(crate) fn parse<T: Wire>(text: &str) -> Option<T> {
    let index = position(T::NAMES, text)?;
    T::ALL.get(index).copied()
}

/// Where `text` is among `names` (one copy for every list of names: the
/// enums' and the HTTP date's months).
pub(crate) fn position(names: &[&str], text: &str) -> Option<usize> {
    names.iter().position(|name| *name == text)
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
    use std::fmt;

    use serde::de::{self, value::StrDeserializer, DeserializeOwned};
    use serde::Serialize;

    use super::*;
    use crate::error::ErrorKind;
    use crate::model::{Active, Credentials, Operation, ParamsIn};

    /// The error serde's derived `Deserialize` is asked with: it keeps the
    /// names an unknown-variant error lists (every name serde knows, in
    /// declaration order), and nothing else.
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

    /// The names serde's derived `Deserialize` of `T` knows.
    fn serde_names<T: DeserializeOwned>() -> &'static [&'static str] {
        match T::deserialize(StrDeserializer::<Refused>::new("")) {
            Ok(_) => &[],
            Err(Refused(names)) => names,
        }
    }

    /// The variant serde's derived `Deserialize` of `T` reads from `text`.
    fn serde_parse<T: DeserializeOwned>(text: &str) -> Option<T> {
        T::deserialize(StrDeserializer::<Refused>::new(text)).ok()
    }

    /// The string a serde serializer is given for `value`.
    fn serialized<T: Serialize>(value: T) -> String {
        serde_json::to_value(value)
            .ok()
            .and_then(|json| json.as_str().map(str::to_string))
            .unwrap_or_default()
    }

    /// `T`'s names agree with its serde derive for every variant: the same
    /// names in the same order, each read back as its own variant.
    fn agrees_with_serde<T: Wire + DeserializeOwned + fmt::Debug>() {
        let matched: Vec<&str> = T::ALL.iter().map(|variant| variant.name()).collect();
        assert_eq!(matched, serde_names::<T>());
        assert_eq!(T::NAMES, serde_names::<T>());
        for &variant in T::ALL {
            assert_eq!(serde_parse::<T>(variant.name()), Some(variant));
            assert_eq!(parse::<T>(variant.name()), Some(variant));
        }
    }

    #[test]
    fn names_agree_with_the_serde_attributes() {
        agrees_with_serde::<ParamsIn>();
        agrees_with_serde::<Credentials>();
        agrees_with_serde::<Active>();
        agrees_with_serde::<ErrorKind>();
        assert_eq!(ParamsIn::NAMES, ["body", "query", "form"]);
        assert_eq!(Credentials::NAMES, ["omit", "same-origin", "include"]);
        assert_eq!(Active::NAMES, ["all", "true", "false"]);
        assert_eq!(ErrorKind::Decode.name(), "decode");
    }

    #[test]
    fn serialized_names_are_the_wire_names() {
        for &variant in ParamsIn::ALL {
            assert_eq!(serialized(variant), variant.name());
        }
        for &variant in Credentials::ALL {
            assert_eq!(serialized(variant), variant.name());
        }
        for &variant in Active::ALL {
            assert_eq!(serialized(variant), variant.name());
        }
        assert_eq!(serialized(Operation::Count), "count");
        assert_eq!(serialized(Operation::List), "list");
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
            one_of(ParamsIn::NAMES, None),
            "\"body\", \"query\" or \"form\""
        );
        assert_eq!(
            one_of(Active::NAMES, Some("a boolean")),
            "\"all\", \"true\", \"false\" or a boolean"
        );
        assert_eq!(one_of(&["x"], None), "\"x\"");
    }
}
