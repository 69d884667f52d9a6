//! Strict bodies: a write's body names only the fields its route takes from its sender, each once. A field the
//! body's type does not take (a player's write naming a `"player"`, a typo) and a field given twice
//! (`{"table":1,"table":2}`, of which serde would quietly keep the last) are refused with a 400 naming it.
//!
//! The fields a body type takes are read from its own `Deserialize` ([`fields_of`]): the derive hands the list
//! of its field names to the deserializer, so every route's type is its own list, with nothing to keep in step.
//! A type that is not a struct of named fields (a map, an untagged choice) is not checked.

use super::error::ApiError;
use crate::error::Error;
use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::HashSet;
use std::fmt;

/// What a form may carry besides its route's fields: its CSRF token, the page to go back to, the key that
/// makes a repeated write safe and the moment a replayed write was made.
pub const FORM_EXTRAS: &[&str] = &["csrf", "back", "idempotency_key", "at"];

/// What a JSON write may carry besides its route's fields: the moment a write replayed from a page's queue was
/// made (taken on the note and clock routes, see `kit::once::TAKES_AT`; the arrival counts elsewhere).
pub const JSON_EXTRAS: &[&str] = &["at"];

/// Form fields that are sent once per checked box (their values arrive joined by commas).
pub const FORM_LISTS: &[&str] = &["evidence"];

/// The field names the struct `T` takes (None when `T` is not a struct of named fields).
pub fn fields_of<T: DeserializeOwned>() -> Option<&'static [&'static str]> {
    let mut found = None;
    let _ = T::deserialize(Introspect(&mut found));
    found
}

/// Refuses a field of `keys` that `T` does not take (nor `extras`), naming it and the fields that are taken.
pub fn known<'a, T: DeserializeOwned>(
    keys: impl IntoIterator<Item = &'a str>,
    extras: &[&str],
) -> Result<(), ApiError> {
    let Some(fields) = fields_of::<T>() else { return Ok(()) };
    for key in keys {
        if !fields.contains(&key) && !extras.contains(&key) {
            let mut taken: Vec<&str> = fields.to_vec();
            taken.extend(extras.iter().copied().filter(|e| !fields.contains(e)));
            return Err(Error::bad_input(format!(
                "the field \"{}\" is not one this request takes (it takes {}): see docs/http.md",
                shown_key(key),
                taken.join(", ")
            ))
            .into());
        }
    }
    Ok(())
}

/// Refuses a form field sent twice (but the boxes of [`FORM_LISTS`]).
pub fn once_in_form(pairs: &[(String, String)]) -> Result<(), ApiError> {
    let mut seen = HashSet::new();
    for (k, _) in pairs {
        if !seen.insert(k.as_str()) && !FORM_LISTS.contains(&k.as_str()) {
            return Err(twice(k));
        }
    }
    Ok(())
}

/// Refuses JSON with a key given twice in any object; other problems are left to the body's own reading.
pub fn once_in_json(body: &[u8]) -> Result<(), ApiError> {
    match serde_json::from_slice::<Unique>(body) {
        Err(e) if e.is_data() => {
            let text = e.to_string();
            match text.strip_prefix(TWICE) {
                Some(rest) => Err(twice(rest.rsplit_once(" at line ").map_or(rest, |(k, _)| k))),
                None => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

/// A JSON body as [`super::player::CodeBody`] keeps it, read strictly as `T`: fields it does not take are refused.
pub fn value_as<T: DeserializeOwned>(value: &serde_json::Value) -> Result<T, ApiError> {
    if let Some(map) = value.as_object() {
        known::<T>(map.keys().map(String::as_str), JSON_EXTRAS)?;
    }
    serde_json::from_value(value.clone())
        .map_err(|e| ApiError::from(Error::bad_input(super::error::not_the_json(&e.to_string()))))
}

fn twice(key: &str) -> ApiError {
    Error::bad_input(format!("the field \"{}\" is given twice: give each field once", shown_key(key))).into()
}

/// A field's name as a message shows it: without control characters, cut at 40 characters.
fn shown_key(key: &str) -> String {
    let (kept, _) = crate::domain::text::strip(key, false);
    let kept = kept.replace('"', "'");
    match kept.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &kept[..cut]),
        None => kept,
    }
}

const TWICE: &str = "twice: ";

/// Any JSON, read only to find an object's key given twice.
struct Unique;

impl<'de> de::Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(UniqueVisitor)
    }
}

struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Unique;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_str<E>(self, _: &str) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_unit<E>(self) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_none<E>(self) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Unique, A::Error> {
        while seq.next_element::<Unique>()?.is_some() {}
        Ok(Unique)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Unique, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                return Err(de::Error::custom(format!("{TWICE}{key}")));
            }
            map.next_value::<Unique>()?;
            seen.insert(key);
        }
        Ok(Unique)
    }
}

/// A deserializer that only notes the field names a struct asks for, then stops.
struct Introspect<'a>(&'a mut Option<&'static [&'static str]>);

#[derive(Debug)]
struct Stop;

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("stop")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<M: fmt::Display>(_: M) -> Self {
        Stop
    }
}

impl<'de> Deserializer<'de> for Introspect<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Stop> {
        *self.0 = Some(fields);
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Tap {
        table: u32,
        code: String,
        #[serde(default)]
        force: bool,
    }

    #[test]
    fn a_structs_fields_are_read_from_its_own_deserialize() {
        assert_eq!(fields_of::<Tap>(), Some(&["table", "code", "force"][..]));
        assert_eq!(fields_of::<serde_json::Value>(), None);
    }

    #[test]
    fn an_unknown_field_is_refused_naming_it_and_the_form_extras_are_taken() {
        let e = known::<Tap>(["table", "player"], &[]).expect_err("player is not a tap's");
        assert!(e.message.contains("\"player\"") && e.message.contains("table, code, force"), "{}", e.message);
        assert!(known::<Tap>(["table", "csrf", "back", "idempotency_key"], FORM_EXTRAS).is_ok());
        assert!(known::<Tap>(["csrf"], &[]).is_err(), "JSON carries no csrf field");
    }

    #[test]
    fn a_key_given_twice_is_refused_at_any_depth_and_other_json_is_left_alone() {
        let e = once_in_json(br#"{"table":1,"table":2}"#).expect_err("twice");
        assert_eq!(e.status, axum::http::StatusCode::BAD_REQUEST);
        assert!(e.message.contains("\"table\" is given twice"), "{}", e.message);
        assert!(once_in_json(br#"{"a":[{"b":1,"b":2}]}"#).is_err());
        assert!(once_in_json(br#"{"a":1,"b":{"a":2}}"#).is_ok());
        assert!(once_in_json(b"not json").is_ok(), "left to the body's own reading");
        let pairs = |p: &[(&str, &str)]| p.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
        assert!(once_in_form(&pairs(&[("table", "1"), ("table", "2")])).is_err());
        assert!(once_in_form(&pairs(&[("evidence", "1"), ("evidence", "2")])).is_ok());
    }
}
