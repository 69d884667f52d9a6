//! A request's body read once and strictly, and the fields several rooms' bodies share.
//!
//! Strict bodies: a write's body names only the fields its route takes from its sender, each once. A field the
//! body's type does not take (a player's write naming a `"player"`, a typo) and a field given twice
//! (`{"table":1,"table":2}`, of which serde would quietly keep the last) are refused with a 400 naming it.
//!
//! A body's text is read once, into what the audit line and the write's key need anyway (see
//! [`super::extract`]): JSON into a tree by [`json`], which refuses a key given twice in any object as it reads
//! (serde_json's own `Value` would keep the last); a form into its fields in order by [`form`], a name sent twice
//! refused but the boxes of [`FORM_LISTS`], joined. The route's type is then read from that reading by
//! reference ([`from_json`], [`from_form`]), never from the text again.
//!
//! What a route takes is its type's own derive: every body type is `#[serde(deny_unknown_fields)]`
//! (`tests/cli/router/bodies.rs` sends every route a field it does not take). A body may carry extras besides
//! (a form's `csrf`, `back`, `idempotency_key`; a replay's `at`), which are the server's, not the route's:
//! serde's `flatten` would put them beside the type's fields, but it does not combine with
//! `deny_unknown_fields`, so the type is read through [`Fields`], a deserializer over the body's fields that
//! leaves out the extras its type does not itself name and learns the type's fields from the derive (the list
//! `deserialize_struct` is handed). A field the type does not take is handed to the derive first, and when the
//! derive refuses it, the refusal is worded the web's way: the field named, and what the route takes.
//!
//! Fields that several rooms' bodies share: life totals, free text, and a table's result (a judge records it, a
//! head judge fixes it).

use super::request::{ApiError, not_the_json};
use crate::domain::result::Reason;
use crate::error::{Error, Result};
use crate::ops::table;
use serde::de;
use serde::de::value::{BorrowedStrDeserializer, Error as TextError};
use serde::de::{
    Deserialize, DeserializeOwned, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use serde_json::{Map, Value};
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

/// What a form may carry besides its route's fields: its CSRF token, the page to go back to, the key that
/// makes a repeated write safe and the moment a replayed write was made.
pub const FORM_EXTRAS: &[&str] = &["csrf", "back", "idempotency_key", "at", "queued"];

/// What a JSON write may carry besides its route's fields: the moment a write replayed from a page's queue was
/// made and why the page kept it (`queued`) (taken on the routes whose `Route::at` is set, see `request::Route::takes_at_list`; the arrival counts elsewhere).
pub const JSON_EXTRAS: &[&str] = &["at", "queued"];

/// Form fields that are sent once per checked box (their values arrive joined by commas).
pub const FORM_LISTS: &[&str] = &["evidence"];

/// A route's fields as its type's derive names them (empty for a type that is not a struct of named fields).
pub type Takes = &'static [&'static str];

/// A JSON body, read once: its tree, or 400 for a key given twice or for text that is not JSON (a blank body is
/// `{}`).
pub fn json(body: &[u8]) -> Result<Value, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Object(Map::new()));
    }
    match tree(body) {
        (_, Some(key)) => Err(twice(&key)),
        (Ok(value), None) => Ok(value),
        (Err(e), None) => Err(Error::bad_input(not_the_json(&e.to_string())).into()),
    }
}

/// A form's fields in the order sent, each name once: a name sent twice is refused, but the boxes of
/// [`FORM_LISTS`], whose values are joined by commas in order.
pub fn form(body: &[u8]) -> Result<Vec<(String, String)>, ApiError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(body).map_err(form_refused)?;
    let mut fields: Vec<(String, String)> = Vec::with_capacity(pairs.len());
    for (k, v) in pairs {
        match fields.iter_mut().find(|(seen, _)| *seen == k) {
            Some((_, all)) if FORM_LISTS.contains(&k.as_str()) => {
                all.push(',');
                all.push_str(&v);
            }
            Some(_) => return Err(twice(&k)),
            None => fields.push((k, v)),
        }
    }
    Ok(fields)
}

/// `T` read from a JSON body's tree (the extras it does not name left out), and the fields it takes.
pub fn from_json<T: DeserializeOwned>(value: &Value) -> Result<(T, Takes), ApiError> {
    let bad = |e: serde_json::Error| ApiError::from(Error::bad_input(not_the_json(&e.to_string())));
    match value.as_object() {
        Some(map) => read(map.iter().map(|(k, v)| (k.as_str(), v)), JSON_EXTRAS, bad),
        None => T::deserialize(value).map(|t| (t, &[][..])).map_err(bad),
    }
}

/// A JSON body as [`super::extract::CodeBody`] keeps it, read strictly as `T`: fields it does not take are refused.
pub fn value_as<T: DeserializeOwned>(value: &Value) -> Result<T, ApiError> {
    from_json(value).map(|(t, _)| t)
}

/// `T` read from a form's fields (as [`form`] gives them; the extras it does not name left out), and the fields
/// it takes.
pub fn from_form<T: DeserializeOwned>(fields: &[(String, String)]) -> Result<(T, Takes), ApiError> {
    read(fields.iter().map(|(k, v)| (k.as_str(), Text(v))), FORM_EXTRAS, form_refused)
}

fn read<'de, T, V, E>(
    fields: impl Iterator<Item = (&'de str, V)>,
    extras: &'static [&'static str],
    bad: impl FnOnce(E) -> ApiError,
) -> Result<(T, Takes), ApiError>
where
    T: Deserialize<'de>,
    V: IntoDeserializer<'de, E>,
    E: de::Error,
{
    let (takes, refused) = (Cell::new(&[][..]), Cell::new(None));
    let fields = Fields { fields: fields.collect(), extras, takes: &takes, refused: &refused, error: PhantomData };
    match (T::deserialize(fields), refused.take()) {
        (Ok(t), _) => Ok((t, takes.get())),
        (Err(_), Some(words)) => Err(Error::bad_input(words).into()),
        (Err(e), None) => Err(bad(e)),
    }
}

fn form_refused(e: impl fmt::Display) -> ApiError {
    Error::bad_input(format!("the form's fields are not the ones expected ({e})")).into()
}

fn twice(key: &str) -> ApiError {
    Error::bad_input(format!("the field \"{}\" is given twice: give each field once", shown_key(key))).into()
}

/// The refusal of `key`, a field the route does not take: it names what the route takes (a replay's `queued`
/// left out: only a page's queue sends it, beside `at`).
fn not_taken(key: &str, takes: Takes, extras: &[&str]) -> String {
    let mut taken: Vec<&str> = takes.to_vec();
    taken.extend(extras.iter().copied().filter(|e| !takes.contains(e) && *e != "queued"));
    format!(
        "the field \"{}\" is not one this request takes (it takes {}): see docs/http.md",
        shown_key(key),
        taken.join(", ")
    )
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

/// JSON read into its tree, and the first key found given twice in an object (the reading stops there).
fn tree(body: &[u8]) -> (serde_json::Result<Value>, Option<String>) {
    let twice = Cell::new(None);
    let mut de = serde_json::Deserializer::from_slice(body);
    let read = Tree(&twice).deserialize(&mut de).and_then(|value| de.end().map(|()| value));
    (read, twice.take())
}

/// Reads JSON into a tree as serde_json's `Value` does, but stops at a key given twice in an object, noting it.
#[derive(Clone, Copy)]
struct Tree<'a>(&'a Cell<Option<String>>);

impl<'de> DeserializeSeed<'de> for Tree<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Tree<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                self.0.set(Some(key));
                return Err(de::Error::custom("a key given twice"));
            }
            let value = map.next_value_seed(self)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// A body's fields as a deserializer for its route's type (see the module's comment): `fields` in the order
/// read, `extras` left out unless the type names them; `takes` is set to the type's fields, `refused` to the
/// words for a field it does not take when its derive refuses that field.
struct Fields<'c, 'de, X, E> {
    fields: Vec<(&'de str, X)>,
    extras: &'static [&'static str],
    takes: &'c Cell<Takes>,
    refused: &'c Cell<Option<String>>,
    error: PhantomData<E>,
}

impl<'de, X: IntoDeserializer<'de, E>, E: de::Error> Deserializer<'de> for Fields<'_, 'de, X, E> {
    type Error = E;

    /// A type that is not a struct of named fields gets every field.
    fn deserialize_any<W: Visitor<'de>>(self, visitor: W) -> Result<W::Value, E> {
        let refused = self.refused;
        let fields = self.fields.into_iter();
        visitor.visit_map(Access { fields, value: None, takes: None, extras: &[], refused, error: PhantomData })
    }

    fn deserialize_struct<W: Visitor<'de>>(
        self,
        _: &'static str,
        takes: &'static [&'static str],
        visitor: W,
    ) -> Result<W::Value, E> {
        let Fields { fields, extras, takes: named, refused, .. } = self;
        named.set(takes);
        // The fields the type does not take go first: the first is refused before any value is read.
        let (mut ordered, known): (Vec<_>, Vec<_>) = fields
            .into_iter()
            .filter(|(k, _)| takes.contains(k) || !extras.contains(k))
            .partition(|(k, _)| !takes.contains(k));
        ordered.extend(known);
        let fields = ordered.into_iter();
        visitor.visit_map(Access { fields, value: None, takes: Some(takes), extras, refused, error: PhantomData })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

struct Access<'c, 'de, X, E> {
    fields: std::vec::IntoIter<(&'de str, X)>,
    value: Option<X>,
    takes: Option<Takes>,
    extras: &'static [&'static str],
    refused: &'c Cell<Option<String>>,
    error: PhantomData<E>,
}

impl<'de, X: IntoDeserializer<'de, E>, E: de::Error> MapAccess<'de> for Access<'_, 'de, X, E> {
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        let Some((key, value)) = self.fields.next() else { return Ok(None) };
        self.value = Some(value);
        let unknown = self.takes.filter(|takes| !takes.contains(&key));
        if let Some(takes) = unknown {
            self.refused.set(Some(not_taken(key, takes, self.extras)));
        }
        let read = seed.deserialize(BorrowedStrDeserializer::new(key));
        if read.is_ok() && unknown.is_some() {
            // A type without deny_unknown_fields takes any field: its derive, not this reading, says what it takes.
            self.refused.set(None);
        }
        read.map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, E> {
        let value = self.value.take().ok_or_else(|| E::custom("a field's value asked before its name"))?;
        seed.deserialize(value.into_deserializer())
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.len())
    }
}

/// A form field's value, read as serde_urlencoded reads one: text, a number or `true`/`false` parsed from it,
/// present (`Some`) when sent, a unit variant by its name.
#[derive(Clone, Copy)]
struct Text<'a>(&'a str);

impl<'de> IntoDeserializer<'de, TextError> for Text<'de> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

macro_rules! parsed {
    ($($ty:ident => $method:ident,)*) => {
        $(
            fn $method<W: Visitor<'de>>(self, visitor: W) -> Result<W::Value, TextError> {
                match self.0.parse::<$ty>() {
                    Ok(v) => v.into_deserializer().$method(visitor),
                    Err(e) => Err(de::Error::custom(e)),
                }
            }
        )*
    };
}

impl<'de> Deserializer<'de> for Text<'de> {
    type Error = TextError;

    fn deserialize_any<W: Visitor<'de>>(self, visitor: W) -> Result<W::Value, TextError> {
        visitor.visit_borrowed_str(self.0)
    }

    fn deserialize_option<W: Visitor<'de>>(self, visitor: W) -> Result<W::Value, TextError> {
        visitor.visit_some(self)
    }

    fn deserialize_enum<W: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: W,
    ) -> Result<W::Value, TextError> {
        BorrowedStrDeserializer::new(self.0).deserialize_enum(name, variants, visitor)
    }

    fn deserialize_newtype_struct<W: Visitor<'de>>(self, _: &'static str, visitor: W) -> Result<W::Value, TextError> {
        visitor.visit_newtype_struct(self)
    }

    parsed! {
        bool => deserialize_bool, u8 => deserialize_u8, u16 => deserialize_u16, u32 => deserialize_u32,
        u64 => deserialize_u64, i8 => deserialize_i8, i16 => deserialize_i16, i32 => deserialize_i32,
        i64 => deserialize_i64, f32 => deserialize_f32, f64 => deserialize_f64,
    }

    serde::forward_to_deserialize_any! {
        char str string unit bytes byte_buf unit_struct tuple_struct struct identifier tuple ignored_any seq map
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Tap {
        table: u32,
        code: String,
        #[serde(default)]
        force: bool,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Loose {
        table: u32,
    }

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn an_unknown_field_is_refused_naming_it_and_what_the_route_takes_and_the_extras_are_left_out() {
        let value = serde_json::json!({ "table": 1, "code": "1", "player": "Bo", "at": "x" });
        let e = from_json::<Tap>(&value).expect_err("player is not a tap's");
        assert_eq!(
            e.message,
            "the field \"player\" is not one this request takes (it takes table, code, force, at): see docs/http.md"
        );
        let (tap, takes) = from_json::<Tap>(&serde_json::json!({ "table": 1, "code": "1", "at": "x" })).expect("a tap");
        assert_eq!((tap.table, tap.code.as_str(), tap.force, takes), (1, "1", false, &["table", "code", "force"][..]));
        let form = pairs(&[("table", "2"), ("code", "1"), ("force", "true"), ("csrf", "x"), ("back", "/")]);
        let (tap, _) = from_form::<Tap>(&form).expect("a form's extras are left out");
        assert_eq!((tap.table, tap.force), (2, true));
        let e = from_json::<Tap>(&serde_json::json!({ "table": 1, "code": "1", "csrf": "x" })).expect_err("JSON");
        assert!(
            e.message.contains("\"csrf\"")
                && e.message.ends_with("(it takes table, code, force, at): see docs/http.md")
        );
        assert!(from_json::<Loose>(&serde_json::json!({ "table": 1, "x": 2 })).is_ok(), "the derive decides");
    }

    #[test]
    fn an_unknown_field_is_named_before_another_fields_wrong_value() {
        let e = from_form::<Tap>(&pairs(&[("table", "x"), ("zz", "1")])).expect_err("both wrong");
        assert!(e.message.contains("\"zz\" is not one"), "{}", e.message);
        let e = from_form::<Tap>(&pairs(&[("table", "x"), ("code", "1")])).expect_err("not a number");
        assert_eq!(e.message, "the form's fields are not the ones expected (invalid digit found in string)");
        let e = from_json::<Tap>(&serde_json::json!({ "table": "x", "code": "1" })).expect_err("not a number");
        assert!(e.message.contains("(invalid type: string \"x\", expected u32)"), "{}", e.message);
    }

    #[test]
    fn a_key_given_twice_is_refused_at_any_depth_and_other_json_is_left_alone() {
        let e = json(br#"{"table":1,"table":2}"#).expect_err("twice");
        assert_eq!(e.status, axum::http::StatusCode::BAD_REQUEST);
        assert_eq!(e.message, "the field \"table\" is given twice: give each field once");
        assert!(json(br#"{"a":[{"b":1,"b":2}]}"#).is_err());
        assert_eq!(
            json(br#" {"b":1.5,"a":{"a":[null,true]}} "#).ok(),
            serde_json::from_str(r#"{"a":{"a":[null,true]},"b":1.5}"#).ok()
        );
        assert!(json(b"not json").is_err_and(|e| e.message.contains("not the JSON expected")));
        assert!(json(b"  ").is_ok_and(|v| v == serde_json::json!({})));
        assert!(json(br#"{"a":1,"a":2}"#).is_err());
        assert!(form(b"table=1&table=2").is_err_and(|e| e.message.contains("\"table\" is given twice")));
        assert!(form(b"csrf=1&csrf=2").is_err_and(|e| e.message.contains("\"csrf\" is given twice")));
        assert_eq!(form(b"evidence=1&table=3&evidence=2").ok(), Some(pairs(&[("evidence", "1,2"), ("table", "3")])));
    }
}

/// Life totals as JSON `[12, 0]` or a form's `7 0` / `7,0`.
#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
pub enum Life {
    /// `[A, B]`.
    Pair([i64; 2]),
    /// `"A,B"` (a form field).
    Text(String),
}

/// The life totals given, if any.
pub fn life_of(life: Option<Life>) -> Result<Option<(i64, i64)>> {
    let bad = || Error::bad_input("life: two totals, seat A's then seat B's, e.g. 7 0");
    match life {
        None => Ok(None),
        Some(Life::Pair([a, b])) => Ok(Some((a, b))),
        Some(Life::Text(t)) if t.trim().is_empty() => Ok(None),
        Some(Life::Text(t)) => {
            // "7 0", "7,0" and "7, 0" alike.
            let totals: Vec<&str> = t.split([',', ' ']).filter(|w| !w.is_empty()).collect();
            let [a, b] = totals.as_slice() else { return Err(bad()) };
            Ok(Some((a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?)))
        }
    }
}

/// A text field's words, None when empty.
pub fn blank(text: Option<String>) -> Option<String> {
    text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty())
}

/// A free text field (a reason): no control characters but line feeds.
pub fn text_field(field: &str, text: Option<String>) -> Result<Option<String>> {
    match text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty()) {
        Some(t) => {
            crate::domain::text::check(field, &t, true).map_err(Error::bad_input)?;
            Ok(Some(t))
        }
        None => Ok(None),
    }
}

/// The body of a write that takes no fields (`/api/round/unpair`, `/api/round/reopen`, `/api/standby/detach`).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoFields {}

/// `POST /api/result` and `/api/result/fix` body.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultBody {
    /// The table.
    pub table: u32,
    /// The winner (a name or its beginning) or `draw`.
    pub winner: Option<String>,
    /// Why the game ended (life, decking, ...).
    pub by: String,
    /// Life totals, seat A's then seat B's.
    pub life: Option<Life>,
    /// Seat A's life total alone (a form asks each player's by name); with `life_b`, in place of `life`.
    #[serde(default, deserialize_with = "optional_number")]
    pub life_a: Option<i64>,
    /// Seat B's life total alone.
    #[serde(default, deserialize_with = "optional_number")]
    pub life_b: Option<i64>,
    /// A judge's remark.
    pub note: Option<String>,
    /// The round (default: the current one).
    pub round: Option<u32>,
    /// (`/api/result/fix`) even though later rounds are paired.
    #[serde(default)]
    pub force: bool,
    /// The turn the game was on when time was called (with `by: "time"`); a form's empty field is none.
    #[serde(default, deserialize_with = "optional_turn")]
    pub turn: Option<u32>,
}

/// A whole number as JSON or a form's text (null or an empty field is none); anything else is refused with
/// `words(what was sent)`. The one reader behind every number-or-empty field of the forms.
pub fn whole_or_none<'de, D: serde::Deserializer<'de>>(
    d: D,
    words: fn(&str) -> String,
) -> std::result::Result<Option<i64>, D::Error> {
    use serde::Deserialize;
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Whole {
        Number(i64),
        Text(String),
    }
    match Option::<Whole>::deserialize(d)? {
        None => Ok(None),
        Some(Whole::Number(n)) => Ok(Some(n)),
        Some(Whole::Text(t)) if t.trim().is_empty() => Ok(None),
        Some(Whole::Text(t)) => t.trim().parse().map(Some).map_err(|_| serde::de::Error::custom(words(&t))),
    }
}

/// [`whole_or_none`] held to 0 and up (a count, a turn, a table).
pub fn count_or_none<'de, D: serde::Deserializer<'de>>(
    d: D,
    words: fn(&str) -> String,
) -> std::result::Result<Option<u32>, D::Error> {
    match whole_or_none(d, words)? {
        None => Ok(None),
        Some(n) => u32::try_from(n).map(Some).map_err(|_| serde::de::Error::custom(words(&n.to_string()))),
    }
}

/// The life totals a form or a JSON body gave: `life` (both, seat A's then seat B's), or each player's by name
/// (`life_a`, `life_b`: both or neither), or none.
pub fn life_given(life: Option<Life>, a: Option<i64>, b: Option<i64>) -> Result<Option<(i64, i64)>> {
    match (life_of(life)?, a, b) {
        (Some(both), None, None) => Ok(Some(both)),
        (None, Some(a), Some(b)) => Ok(Some((a, b))),
        (None, None, None) => Ok(None),
        (None, _, _) => Err(Error::bad_input("life totals: give both players' totals, or neither")),
        (Some(_), _, _) => Err(Error::bad_input("life totals: give them once, as life or as each player's")),
    }
}

/// A life total (a whole number).
pub fn optional_number<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<i64>, D::Error> {
    whole_or_none(d, |t| format!("a life total is a whole number, not \"{t}\""))
}

/// The turn the game was on when time was called.
fn optional_turn<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<u32>, D::Error> {
    count_or_none(d, |t| format!("turn takes the turn the game was on when time was called, not \"{t}\""))
}

/// The `ops` input of a result or its fix.
pub fn result_input(b: ResultBody) -> Result<table::records::result::ResultInput> {
    let reason = Reason::parse(&b.by).map_err(Error::bad_input)?;
    // A form's "the life totals decide (time)": no winner named, the totals give it.
    let winner = blank(b.winner).filter(|w| !(reason == Reason::Time && w == "totals"));
    let life = life_given(b.life, b.life_a, b.life_b)?;
    Ok(table::records::result::ResultInput {
        table: b.table,
        round: b.round,
        winner,
        reason,
        life,
        note: text_field("note", b.note)?,
        at: None,
        turn: b.turn,
    })
}
