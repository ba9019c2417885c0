//! JSON: a compact tree of the file, and reading it with a path into the document for every
//! error (`line_of_sight[12][3].x`).

use super::Fail;
use super::frame::Squares;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// Largest number accepted anywhere in the file; beyond this it is garbage, not a map.
const MAX_NUMBER: f64 = 1e9;

/// Parse the file (a UTF-8 byte order mark skipped) into a tree; a syntax error names its line
/// and column.
pub(super) fn parse(bytes: &[u8]) -> Result<Json<'_>, Fail> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(bytes);
    serde_json::from_slice(bytes).map_err(json_error)
}

/// A parsed JSON value. Strings borrow from the file where they can (the image is most of it);
/// `{x, y}` points, by far the most common value, are kept inline.
#[derive(Debug, PartialEq)]
pub(super) enum Json<'a> {
    Null,
    Bool(bool),
    Number(f64),
    String(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
    /// An object of exactly the numbers `x` and `y`.
    Xy(f64, f64),
}

/// A string that borrows from the input when it has no escapes.
struct Text<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(TextVisitor)
    }
}

impl<'de> Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Json::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Json::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        Json::deserialize(deserializer)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Json::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Json::Number(v as f64))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Json::Number(v as f64))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Json::Number(v))
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Json::String(Cow::Borrowed(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Json::String(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Json::String(Cow::Owned(v)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Json<'de>>()? {
            items.push(item);
        }
        items.shrink_to_fit();
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entries: Vec<(Cow<'de, str>, Json<'de>)> = Vec::new();
        while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
            let value = map.next_value::<Json<'de>>()?;
            entries.push((key, value));
        }
        if let [(k1, Json::Number(v1)), (k2, Json::Number(v2))] = entries.as_slice() {
            match (&**k1, &**k2) {
                ("x", "y") => return Ok(Json::Xy(*v1, *v2)),
                ("y", "x") => return Ok(Json::Xy(*v2, *v1)),
                _ => {}
            }
        }
        entries.shrink_to_fit();
        Ok(Json::Object(entries))
    }
}

fn json_error(e: serde_json::Error) -> Fail {
    let text = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    let message = text.strip_suffix(&place).unwrap_or(&text);
    let message = if e.is_eof() {
        format!("the file ends too soon (truncated?): {message}")
    } else {
        format!("not valid JSON: {message}")
    };
    Fail { field: format!("line {} column {}", e.line(), e.column()), message }
}

/// Where a value sits in the document, as a chain back to the root; rendered only for errors.
#[derive(Clone, Copy)]
pub(super) struct At<'p> {
    parent: Option<&'p At<'p>>,
    step: Step<'p>,
}

#[derive(Clone, Copy)]
enum Step<'p> {
    Root,
    Key(&'p str),
    Index(usize),
}

impl<'p> At<'p> {
    pub(super) const ROOT: At<'static> = At { parent: None, step: Step::Root };

    pub(super) fn key<'q>(&'q self, key: &'q str) -> At<'q> {
        At { parent: Some(self), step: Step::Key(key) }
    }

    pub(super) fn index(&self, index: usize) -> At<'_> {
        At { parent: Some(self), step: Step::Index(index) }
    }

    fn render(&self) -> String {
        let mut steps = Vec::new();
        let mut at = Some(self);
        while let Some(a) = at {
            steps.push(a.step);
            at = a.parent;
        }
        let mut out = String::new();
        for step in steps.iter().rev() {
            match step {
                Step::Root => {}
                Step::Key(k) if out.is_empty() => out.push_str(k),
                Step::Key(k) => {
                    out.push('.');
                    out.push_str(k);
                }
                Step::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        if out.is_empty() { "(document)".to_string() } else { out }
    }
}

pub(super) fn fail(at: &At, message: impl Into<String>) -> Fail {
    Fail { field: at.render(), message: message.into() }
}

fn kind(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "true or false",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "a list",
        Json::Object(_) | Json::Xy(..) => "an object",
    }
}

pub(super) type Entries<'j, 'a> = &'j [(Cow<'a, str>, Json<'a>)];

pub(super) fn object<'j, 'a>(v: &'j Json<'a>, at: &At) -> Result<Entries<'j, 'a>, Fail> {
    match v {
        Json::Object(entries) => Ok(entries),
        // An object of only x and y has none of the keys an object is read for.
        Json::Xy(..) => Ok(&[]),
        other => Err(fail(at, format!("expected an object, found {}", kind(other)))),
    }
}

/// A field that may be absent; `null` counts as absent. The last of repeated keys wins.
pub(super) fn optional<'j, 'a>(entries: Entries<'j, 'a>, key: &str) -> Option<&'j Json<'a>> {
    entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v).filter(|v| **v != Json::Null)
}

pub(super) fn field<'j, 'a>(
    entries: Entries<'j, 'a>,
    at: &At,
    key: &str,
    expected: &str,
) -> Result<&'j Json<'a>, Fail> {
    optional(entries, key).ok_or_else(|| fail(&at.key(key), format!("missing (expected {expected})")))
}

pub(super) fn array<'j, 'a>(v: &'j Json<'a>, at: &At) -> Result<&'j [Json<'a>], Fail> {
    match v {
        Json::Array(items) => Ok(items),
        other => Err(fail(at, format!("expected a list, found {}", kind(other)))),
    }
}

pub(super) fn string<'j>(v: &'j Json, at: &At) -> Result<&'j str, Fail> {
    match v {
        Json::String(s) => Ok(s),
        other => Err(fail(at, format!("expected a string, found {}", kind(other)))),
    }
}

pub(super) fn boolean(v: &Json, at: &At) -> Result<bool, Fail> {
    match v {
        Json::Bool(b) => Ok(*b),
        other => Err(fail(at, format!("expected true or false, found {}", kind(other)))),
    }
}

fn in_range(n: f64, at: &At) -> Result<f64, Fail> {
    if n.is_finite() && n.abs() <= MAX_NUMBER {
        Ok(n)
    } else {
        Err(fail(at, format!("{n} is out of range (beyond {MAX_NUMBER:e})")))
    }
}

pub(super) fn number(v: &Json, at: &At) -> Result<f64, Fail> {
    match v {
        Json::Number(n) => in_range(*n, at),
        other => Err(fail(at, format!("expected a number, found {}", kind(other)))),
    }
}

/// A `{x, y}` point.
pub(super) fn point(v: &Json, at: &At) -> Result<Squares, Fail> {
    match v {
        Json::Xy(x, y) => Ok((in_range(*x, &at.key("x"))?, in_range(*y, &at.key("y"))?)),
        Json::Object(entries) => {
            let x = number(field(entries, at, "x", "a number")?, &at.key("x"))?;
            let y = number(field(entries, at, "y", "a number")?, &at.key("y"))?;
            Ok((x, y))
        }
        other => Err(fail(at, format!("expected a point {{x, y}}, found {}", kind(other)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::uvtt::fixtures::{encode_base64, import_text, minimal, png_header};
    use crate::scene::uvtt::{ImportSettings, import_uvtt};

    #[test]
    fn not_json_or_truncated() {
        let e = import_text("{\"format\": 0.3,\n \"resolution\": oops}");
        assert_eq!(e.field, "line 2 column 16"); // the `o` of `oops`
        assert!(e.message.starts_with("not valid JSON"), "{e}");
        let whole = serde_json::to_string(&minimal()).unwrap();
        let e = import_text(&whole[..whole.len() / 2]);
        assert!(e.message.contains("truncated"), "{e}");
        assert!(import_text("").message.contains("truncated"));
        let deep = "[".repeat(10_000);
        assert!(import_text(&deep).message.contains("not valid JSON"));
        assert_eq!(import_text("[1, 2]").to_string(), "cave.dd2vtt: (document): expected an object, found a list");
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend(serde_json::to_vec(&minimal()).unwrap());
        assert!(import_uvtt(&bytes, "bom.dd2vtt", &ImportSettings::default()).is_ok());
    }

    #[test]
    fn escaped_strings_and_repeated_keys_are_read() {
        // An escape in the string (here \u0069 for its first letter, 'i') makes serde_json hand
        // over an unescaped copy instead of a borrow.
        let image = encode_base64(&png_header(20, 16));
        assert!(image.starts_with('i'));
        let image = format!("\\u0069{}", &image[1..]);
        let mut text = serde_json::to_string(&minimal()).unwrap();
        let start = text.find("\"image\":\"").unwrap() + 9;
        let end = start + text[start..].find('"').unwrap();
        text.replace_range(start..end, &image);
        let imported = import_uvtt(text.as_bytes(), "e.dd2vtt", &ImportSettings::default()).unwrap();
        assert_eq!(imported.image.unwrap().width_px, 20);
        // The last of repeated keys wins, as in most JSON readers.
        let doc: Json = serde_json::from_str(r#"{"a": 1, "a": 2}"#).unwrap();
        assert_eq!(optional(object(&doc, &At::ROOT).unwrap(), "a"), Some(&Json::Number(2.0)));
        let doc: Json = serde_json::from_str(r#"{"y": 1, "x": 2}"#).unwrap();
        assert_eq!(doc, Json::Xy(2.0, 1.0));
    }
}
