//! A quick reader for the plain RON that scene files are written in, tried before `ron`'s own.
//!
//! `ron` spends most of a big scene's load in its number parser (it tries six `inf`/`NaN`
//! spellings, searches for a range and allocates before every float). This reader knows only
//! the plain forms `tabula` writes and people type: structs with or without their name, tuples,
//! lists, `Some(..)`/`None` and bare values for options (the `implicit_some` extension the
//! loader turns on), enum variants and raw identifiers, decimal numbers, strings with the
//! escapes `ron` writes, `true`/`false`, `()`, and line comments. For anything else, and for
//! every error, it declines, and the loader reads the text again with `ron`, which also words
//! the error with its place in the file.
//!
//! So it never changes what a scene file means: what it accepts, `ron` accepts with the same
//! value. `tests` check that on every example scene, on `tabula`'s saves and on thousands of
//! mutated ones, and every fuzz case checks it again (`crate::fuzz`).

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// Read `text` as a `T`, or `None` where the text is not in the plain subset or is not a `T`.
pub(crate) fn read<'de, T: de::Deserialize<'de>>(text: &'de str) -> Option<T> {
    let mut reader = Reader { text, bytes: text.as_bytes(), at: 0, depth: 0 };
    let value = T::deserialize(&mut reader).ok()?;
    reader.skip_space();
    (reader.at == reader.bytes.len()).then_some(value)
}

/// Deeper nesting than any scene has is left to `ron` and its recursion limit.
const MAX_DEPTH: u32 = 16;

/// The reader gave up: the text is outside the plain subset, or not the type asked for.
#[derive(Debug)]
struct Declined;

impl fmt::Display for Declined {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("not plain RON of this type")
    }
}

impl std::error::Error for Declined {}

impl de::Error for Declined {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Declined
    }
}

type Result<T> = std::result::Result<T, Declined>;

struct Reader<'de> {
    text: &'de str,
    bytes: &'de [u8],
    at: usize,
    depth: u32,
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// What may follow `r#` in a raw identifier (ASCII part).
fn is_raw_ident_char(b: u8) -> bool {
    is_ident_continue(b) || matches!(b, b'.' | b'+' | b'-')
}

impl<'de> Reader<'de> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// Skip ASCII whitespace and `//` comments. Anything else (a block comment, Unicode
    /// whitespace) stays, and the next token's check declines it.
    fn skip_space(&mut self) {
        while let Some(&b) = self.bytes.get(self.at) {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C => self.at += 1,
                b'/' if self.bytes.get(self.at + 1) == Some(&b'/') => {
                    self.at +=
                        self.bytes[self.at..].iter().position(|&c| c == b'\n').unwrap_or(self.bytes.len() - self.at);
                }
                _ => return,
            }
        }
    }

    /// Skip space, then take `b` if it is next.
    fn eat(&mut self, b: u8) -> bool {
        self.skip_space();
        let found = self.peek() == Some(b);
        self.at += usize::from(found);
        found
    }

    fn expect(&mut self, b: u8) -> Result<()> {
        if self.eat(b) { Ok(()) } else { Err(Declined) }
    }

    /// The identifier at the cursor, not consumed, and how many bytes it takes (more than its
    /// length for a raw one, `r#name`). ASCII only, and not the start of a raw or byte string
    /// or of a longer Unicode identifier.
    fn peek_ident(&mut self) -> Option<(&'de str, usize)> {
        self.skip_space();
        let start = self.at;
        let raw = self.bytes[start..].starts_with(b"r#");
        let (from, first_ok): (usize, fn(u8) -> bool) =
            if raw { (start + 2, is_raw_ident_char) } else { (start, is_ident_start) };
        if !self.bytes.get(from).is_some_and(|&b| first_ok(b)) {
            return None;
        }
        let continues = if raw { is_raw_ident_char } else { is_ident_continue };
        let len = self.bytes[from..].iter().position(|&b| !continues(b)).unwrap_or(self.bytes.len() - from);
        match self.bytes.get(from + len) {
            Some(b'#' | b'"' | b'\'') => None,
            Some(&b) if !b.is_ascii() => None,
            _ => Some((&self.text[from..from + len], from + len - start)),
        }
    }

    /// An identifier, raw or not.
    fn ident(&mut self) -> Result<&'de str> {
        let (ident, taken) = self.peek_ident().ok_or(Declined)?;
        self.at += taken;
        Ok(ident)
    }

    /// The plain (not raw) identifier at the cursor, not consumed: a keyword or a struct name.
    fn peek_word(&mut self) -> Option<&'de str> {
        self.peek_ident().filter(|&(word, taken)| word.len() == taken).map(|(word, _)| word)
    }

    /// A number's text: `-`, digits, then for a float at most one `.digits` and one exponent.
    /// The next character must end it, as `ron` reads numbers (no suffix, no `..` range).
    fn number(&mut self, float: bool) -> Result<&'de str> {
        self.skip_space();
        let start = self.at;
        self.at += usize::from(self.peek() == Some(b'-'));
        self.digits()?;
        if float {
            if self.peek() == Some(b'.') {
                self.at += 1;
                self.digits()?;
            }
            if matches!(self.peek(), Some(b'e' | b'E')) {
                self.at += 1;
                self.at += usize::from(matches!(self.peek(), Some(b'+' | b'-')));
                self.digits()?;
            }
        }
        match self.peek() {
            Some(b) if is_ident_continue(b) || matches!(b, b'.' | b'+' | b'-') || !b.is_ascii() => Err(Declined),
            _ => Ok(&self.text[start..self.at]),
        }
    }

    fn digits(&mut self) -> Result<()> {
        let len = self.bytes[self.at..].iter().position(|b| !b.is_ascii_digit()).unwrap_or(self.bytes.len() - self.at);
        if len == 0 {
            return Err(Declined);
        }
        self.at += len;
        Ok(())
    }

    fn integer<T: std::str::FromStr>(&mut self) -> Result<T> {
        self.number(false)?.parse().map_err(|_| Declined)
    }

    fn float32(&mut self) -> Result<f32> {
        let text = self.number(true)?;
        let digits = text.strip_prefix('-').unwrap_or(text);
        // Up to seven digits is exact in an f32, as `f32::from_str` gives it (-0 included).
        if digits.len() <= 7 && digits.bytes().all(|b| b.is_ascii_digit()) {
            let magnitude = digits.bytes().fold(0u32, |n, b| n * 10 + u32::from(b - b'0')) as f32;
            return Ok(if digits.len() < text.len() { -magnitude } else { magnitude });
        }
        text.parse().map_err(|_| Declined)
    }

    /// A string: borrowed from the text, or built where it has the simple escapes `ron` writes
    /// (`\'`, `\"`, `\\`, `\n`, `\r`, `\t`, `\0`).
    fn string(&mut self) -> Result<Cow<'de, str>> {
        self.expect(b'"')?;
        let start = self.at;
        let end = |from: usize| self.bytes[from..].iter().position(|&b| b == b'"' || b == b'\\').map(|len| from + len);
        let mut stop = end(start).ok_or(Declined)?;
        if self.bytes[stop] == b'"' {
            self.at = stop + 1;
            return Ok(Cow::Borrowed(&self.text[start..stop]));
        }
        let mut built = String::from(&self.text[start..stop]);
        while self.bytes[stop] == b'\\' {
            built.push(match self.bytes.get(stop + 1) {
                Some(b'\'') => '\'',
                Some(b'"') => '"',
                Some(b'\\') => '\\',
                Some(b'n') => '\n',
                Some(b'r') => '\r',
                Some(b't') => '\t',
                Some(b'0') => '\0',
                _ => return Err(Declined),
            });
            let next = end(stop + 2).ok_or(Declined)?;
            built.push_str(&self.text[stop + 2..next]);
            stop = next;
        }
        self.at = stop + 1;
        Ok(Cow::Owned(built))
    }

    /// Run `f` one level deeper, declining past [`MAX_DEPTH`].
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= MAX_DEPTH {
            return Err(Declined);
        }
        self.depth += 1;
        let value = f(self);
        self.depth -= 1;
        value
    }

    /// `open`, comma-separated items up to `close` (a trailing comma allowed), `close`.
    fn list<V: Visitor<'de>>(&mut self, close: u8, visitor: V) -> Result<V::Value> {
        self.nested(|r| {
            let value = visitor.visit_seq(Items { reader: r, close, more: true })?;
            r.expect(close)?;
            Ok(value)
        })
    }

    /// `( field: value, ... )`, the parenthesis already taken.
    fn fields<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.nested(|r| {
            let value = visitor.visit_map(Items { reader: r, close: b')', more: true })?;
            r.expect(b')')?;
            Ok(value)
        })
    }

    /// After an item: an optional comma.
    fn comma(&mut self) -> bool {
        self.eat(b',')
    }
}

/// The items of a list, a tuple or a struct's fields.
struct Items<'a, 'de> {
    reader: &'a mut Reader<'de>,
    close: u8,
    /// A comma (or the opening) came last, so another item may follow.
    more: bool,
}

impl<'de> Items<'_, 'de> {
    fn has_item(&mut self) -> Result<bool> {
        self.reader.skip_space();
        let closed = self.reader.peek() == Some(self.close);
        if !closed && !self.more {
            return Err(Declined);
        }
        Ok(!closed)
    }
}

impl<'de> SeqAccess<'de> for Items<'_, 'de> {
    type Error = Declined;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.has_item()? {
            return Ok(None);
        }
        let value = seed.deserialize(&mut *self.reader)?;
        self.more = self.reader.comma();
        Ok(Some(value))
    }
}

impl<'de> MapAccess<'de> for Items<'_, 'de> {
    type Error = Declined;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !self.has_item()? {
            return Ok(None);
        }
        let name = self.reader.ident()?;
        seed.deserialize(BorrowedStrDeserializer::new(name)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.reader.expect(b':')?;
        let value = seed.deserialize(&mut *self.reader)?;
        self.more = self.reader.comma();
        Ok(value)
    }
}

/// An enum's variant: its name read, its contents (if any) still to come.
struct Variant<'a, 'de> {
    reader: &'a mut Reader<'de>,
}

impl<'de> de::EnumAccess<'de> for Variant<'_, 'de> {
    type Error = Declined;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let name = self.reader.ident()?;
        Ok((seed.deserialize(BorrowedStrDeserializer::new(name))?, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = Declined;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        let r = self.reader;
        r.expect(b'(')?;
        r.nested(|r| {
            let value = seed.deserialize(&mut *r)?;
            r.comma();
            r.expect(b')')?;
            Ok(value)
        })
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.reader.expect(b'(')?;
        self.reader.list(b')', visitor)
    }

    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        self.reader.expect(b'(')?;
        self.reader.fields(visitor)
    }
}

/// Integers of each width: decimal digits, `-` for a signed one, in range.
macro_rules! integers {
    ($($method:ident => $visit:ident),* $(,)?) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            visitor.$visit(self.integer()?)
        })*
    };
}

/// What the reader leaves to `ron`.
macro_rules! decline {
    ($($method:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {
        $(fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* _visitor: V) -> Result<V::Value> {
            $(let _ = $arg;)*
            Err(Declined)
        })*
    };
}

impl<'de> Deserializer<'de> for &mut Reader<'de> {
    type Error = Declined;

    /// Only what a member of a sleeping group is: a name, or a struct with field names.
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_space();
        match self.peek() {
            Some(b'"') => self.deserialize_str(visitor),
            Some(b'(') => {
                let open = self.at;
                self.at += 1;
                let named = self.ident().is_ok() && self.eat(b':');
                self.at = open + 1;
                if !named {
                    return Err(Declined);
                }
                self.fields(visitor)
            }
            _ => Err(Declined),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let value = match self.peek_word() {
            Some("true") => true,
            Some("false") => false,
            _ => return Err(Declined),
        };
        self.at += if value { 4 } else { 5 };
        visitor.visit_bool(value)
    }

    integers! {
        deserialize_i8 => visit_i8,
        deserialize_i16 => visit_i16,
        deserialize_i32 => visit_i32,
        deserialize_i64 => visit_i64,
        deserialize_u8 => visit_u8,
        deserialize_u16 => visit_u16,
        deserialize_u32 => visit_u32,
        deserialize_u64 => visit_u64,
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f32(self.float32()?)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_f64(self.number(true)?.parse().map_err(|_| Declined)?)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.string()? {
            Cow::Borrowed(text) => visitor.visit_borrowed_str(text),
            Cow::Owned(text) => visitor.visit_string(text),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    /// `None`, `Some(value)`, or the value alone (`implicit_some`).
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek_word() {
            Some("None") => {
                self.at += 4;
                visitor.visit_none()
            }
            Some("Some") => {
                self.at += 4;
                self.expect(b'(')?;
                self.nested(|r| {
                    let value = visitor.visit_some(&mut *r)?;
                    r.comma();
                    r.expect(b')')?;
                    Ok(value)
                })
            }
            _ => self.nested(|r| visitor.visit_some(r)),
        }
    }

    /// `()`, with nothing between the parentheses, as `ron` wants it.
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_space();
        if !self.bytes[self.at..].starts_with(b"()") {
            return Err(Declined);
        }
        self.at += 2;
        visitor.visit_unit()
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.expect(b'[')?;
        self.list(b']', visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.expect(b'(')?;
        self.list(b')', visitor)
    }

    /// A struct, with its name before the parenthesis or without.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if self.peek_ident().is_some() {
            if self.peek_word() != Some(name) {
                return Err(Declined);
            }
            self.at += name.len();
        }
        self.expect(b'(')?;
        self.fields(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.nested(|r| visitor.visit_enum(Variant { reader: r }))
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(self.ident()?)
    }

    decline! {
        deserialize_char(),
        deserialize_bytes(),
        deserialize_byte_buf(),
        deserialize_map(),
        deserialize_ignored_any(),
        deserialize_unit_struct(name: &'static str),
        deserialize_newtype_struct(name: &'static str),
        deserialize_tuple_struct(name: &'static str, len: usize),
    }
}

#[cfg(test)]
mod tests {
    use super::read;
    use crate::scene::format::Scene;

    /// What `ron` reads, as the loader asks it.
    fn ron_reads(text: &str) -> Option<Scene> {
        crate::scene::load::ron_options().from_str(text).ok()
    }

    /// The reader accepts `text` only where `ron` does, with the same value (compared by its
    /// `Debug` text, so NaNs compare); returns whether it accepted.
    fn agrees(text: &str) -> bool {
        let quick: Option<Scene> = read(text);
        if let Some(quick) = &quick {
            let slow = ron_reads(text).unwrap_or_else(|| panic!("ron refuses what the quick reader took:\n{text}"));
            assert_eq!(format!("{quick:?}"), format!("{slow:?}"), "different values for:\n{text}");
        }
        quick.is_some()
    }

    fn scene_with(figure: &str) -> String {
        format!("(version: 1, table: (width: 72, height: 48), figures: [{figure}])")
    }

    #[test]
    fn every_example_scene_and_its_save_is_read_quickly_and_as_ron_reads_it() {
        let mut seen = 0;
        for dir in ["scenes", "benches/scenes"] {
            let mut paths: Vec<_> = std::fs::read_dir(dir).expect("folder").map(|e| e.expect("entry").path()).collect();
            paths.sort();
            for path in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "ron")) {
                let text = std::fs::read_to_string(&path).expect("readable");
                assert!(agrees(&text), "{} is not read quickly", path.display());
                let scene = ron_reads(&text).expect("an example parses");
                let saved = crate::scene::scene_to_ron(&scene).expect("saves");
                assert!(agrees(&saved), "the save of {} is not read quickly", path.display());
                seen += 1;
            }
        }
        assert!(seen >= 10, "only {seen} scenes found");
    }

    #[test]
    fn plain_forms_are_read_quickly() {
        for figure in [
            "(name: \"A\", position: (1, 2))",
            "(name: \"A\", position: (1.5, -2.25), path: [(3e1, 4E-1), (0.5, 007)],)",
            "Figure(name: \"A\", position: (1, 2))",
            "( name : \"A\" , position : ( 1 , 2 , ) , ) // a comment\n",
            "(name: \"Ä\", position: (-0, 2), show_players: Some(true))",
            "(name: \"A\", position: (1, 2), show_players: false, conditions: [(name: \"burn\", moves_left: 3)])",
            "(name: \"A\", position: (1, 2), show_players: Some ( true , ))",
            "(name: \"A\", position: (1, 2), r#gait: r#cautious)",
            "(name: \"A\\\"B\\'s \\\\ \\n\\r\\t\\0\", position: (1, 2))",
            "(name: \"A\", position: (1, 2), skills: [spot_disarm(1), set_trap(2)], gait: cautious)",
        ] {
            assert!(agrees(&scene_with(figure)), "{figure}");
        }
        assert!(agrees("// head\n(version: 1, table: (width: 72, height: 48)) // tail, no newline"));
        assert!(agrees("Scene(version: 1, table: (width: 72, height: 48),\r\n\t\x0b\x0c)"));
    }

    #[test]
    fn what_the_reader_declines_is_left_to_ron() {
        for figure in [
            "(name: \"A\\u{42}\", position: (1, 2))",
            "(name: \"A\\\nB\", position: (1, 2))",
            "(name: r\"A\", position: (1, 2))",
            "(name: \"A\", position: (1., 2))",
            "(name: \"A\", position: (.5, 2))",
            "(name: \"A\", position: (+1, 2))",
            "(name: \"A\", position: (1_0, 2))",
            "(name: \"A\", position: (0x10, 2))",
            "(name: \"A\", position: (1f32, 2))",
            "(name: \"A\", position: (inf, 2))",
            "(name: \"A\", position: (NaN, 2))",
            "(name: \"A\", position: (1..2, 2))",
            "(name: \"A\", position: (1, 2), show_players: Some true)",
            "(name: \"A\", position: (1, 2), gait: cautious())",
            "(name: \"A\", position: /* here */ (1, 2))",
            "(name: \"A\", position: (1, 2), r#: cautious)",
            "(name: \"A\", position: (1, 2), show_players: r#true)",
            "(name: \"A\", position: (1, 2), show_players: r#None)",
            "r#Scene(version: 1, table: (width: 72, height: 48))",
            "(name: \"A\",\u{2028}position: (1, 2))",
            "(name: \"A\", position: (1, 2), gaité: cautious)",
            "Other(name: \"A\", position: (1, 2))",
            "(name: \"A\", position: (1, 2), conditions: [(name: \"burn\", moves_left: 3u32)])",
            "(name: \"A\", position: (1, 2), conditions: [(name: \"burn\", moves_left: -3)])",
            "(name: \"A\", position: (1, 2), conditions: [(name: \"burn\", moves_left: 99999999999)])",
        ] {
            assert!(!agrees(&scene_with(figure)), "{figure}");
        }
        for text in [
            "#![enable(implicit_some)]\n(version: 1, table: (width: 72, height: 48))",
            "(version: 1, table: (width: 72, height: 48)) x",
            "(version: 1, table: (width: 72, height: 48) (",
            "(version: 1 table: (width: 72, height: 48))",
            "(version: 1, table: (width: 72, height: 48), ,)",
            "(version: 1, table: (width: 72, height: 48), wobble: 3)",
            "(version: 1, version: 1, table: (width: 72, height: 48))",
            "\u{feff}(version: 1, table: (width: 72, height: 48))",
        ] {
            assert!(!agrees(text), "{text}");
        }
    }

    /// Mutated scenes, from the fuzz harness's mutator and from single-character edits: never
    /// a value `ron` would not give.
    #[test]
    fn mutated_scenes_are_read_as_ron_reads_them_or_declined() {
        let marks = [
            "(", ")", "[", "]", ",", ":", " ", "\n", "//", "/*", "\"", "\\", "-", ".", "e", "_", "#", "r", "0", "9",
            "é", "Some", "None", "()", "..", "+", "true",
        ];
        let mut accepted = 0;
        let mut cases = 0;
        for name in ["tomb", "farmstead", "goblin-warren", "prisoner-escort", "night-camp", "market-town"] {
            let text = std::fs::read_to_string(format!("scenes/{name}.ron")).expect("an example");
            for seed in 0..150u64 {
                accepted += usize::from(agrees(&crate::fuzz::mutate_scene(&text, seed)));
                // One edit at a place and of a kind the seed picks.
                let mut at = (seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize % text.len();
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                let mark = marks[seed as usize % marks.len()];
                let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
                for edited in [
                    format!("{}{mark}{}", &text[..at], &text[at..]),
                    format!("{}{mark}{}", &text[..at], &text[end..]),
                    format!("{}{}", &text[..at], &text[end..]),
                ] {
                    accepted += usize::from(agrees(&edited));
                }
                cases += 4;
            }
        }
        // The mutations keep many scenes readable: the reader must take a good share of them.
        assert!(accepted * 4 > cases, "only {accepted} of {cases} read quickly");
    }
}
