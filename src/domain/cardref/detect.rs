//! Finds the format of a card file from its content, scanning JSON without decoding it.

use super::{Format, ImportError};

/// Detects the format: `[` starts Scryfall bulk data, `{` an MTGJSON file (or a Scryfall list),
/// and text whose first line has a comma or the word "name" is CSV (so a CSV with a wrong
/// header gets an error naming its columns).
pub(super) fn detect(bytes: &[u8]) -> Result<Format, ImportError> {
    let bytes = strip_bom(bytes);
    let start = skip_ws(bytes, 0);
    match bytes.get(start) {
        None => Err(ImportError::Empty),
        Some(b'[') => Ok(Format::Scryfall),
        Some(b'{') => object_format(bytes, start).ok_or(ImportError::UnknownFormat),
        Some(_) if looks_like_csv(&bytes[start..]) => Ok(Format::Csv),
        Some(_) => Err(ImportError::UnknownFormat),
    }
}

/// Drops a UTF-8 byte-order mark.
pub(super) fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

fn looks_like_csv(bytes: &[u8]) -> bool {
    let line_end = bytes.iter().position(|&b| b == b'\n').unwrap_or(bytes.len());
    let line = &bytes[..line_end];
    let Ok(text) = std::str::from_utf8(line) else {
        return false;
    };
    !text.contains('\0') && (text.contains(',') || text.to_ascii_lowercase().contains("name"))
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
        i += 1;
    }
    i
}

/// Reads the string starting at `i` (a `"`); returns its raw bytes and the index after it.
fn read_string(b: &[u8], i: usize) -> Option<(&[u8], usize)> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => return Some((&b[i + 1..j], j + 1)),
            _ => j += 1,
        }
    }
    None
}

/// Skips one JSON value starting at `i`; returns the index after it.
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => read_string(b, i).map(|(_, j)| j),
        b'{' | b'[' => skip_container(b, i),
        _ => {
            let len = b[i..]
                .iter()
                .position(|c| matches!(c, b',' | b'}' | b']') || c.is_ascii_whitespace())
                .unwrap_or(b.len() - i);
            Some(i + len)
        }
    }
}

fn skip_container(b: &[u8], i: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = i;
    while j < b.len() {
        match b[j] {
            b'"' => {
                j = read_string(b, j)?.1;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
        j += 1;
    }
    None
}

/// Reads `"key":` at `i`; returns the key and the index of its value.
fn read_key(b: &[u8], i: usize) -> Option<(&[u8], usize)> {
    let (key, j) = read_string(b, skip_ws(b, i))?;
    let j = skip_ws(b, j);
    (b.get(j) == Some(&b':')).then(|| (key, skip_ws(b, j + 1)))
}

/// Walks the keys of the top-level object until one tells the format.
fn object_format(b: &[u8], open: usize) -> Option<Format> {
    let mut i = open + 1;
    loop {
        let (key, value) = read_key(b, i)?;
        match key {
            b"data" => return data_format(b, value),
            b"cards" => return Some(Format::MtgjsonSet),
            _ => {}
        }
        let after = skip_ws(b, skip_value(b, value)?);
        match b.get(after)? {
            b',' => i = after + 1,
            _ => return None,
        }
    }
}

/// The shape of the value of `data`: a list of cards (Scryfall list), a set object (lower-case
/// keys), a map of card names to face lists (AtomicCards) or of set codes to sets (AllPrintings).
fn data_format(b: &[u8], value: usize) -> Option<Format> {
    match b.get(value)? {
        b'[' => return Some(Format::Scryfall),
        b'{' => {}
        _ => return None,
    }
    let inner = skip_ws(b, value + 1);
    if b.get(inner) == Some(&b'}') {
        return Some(Format::MtgjsonAtomic);
    }
    let (key, first) = read_key(b, inner)?;
    if key.first().is_some_and(u8::is_ascii_lowercase) {
        return Some(Format::MtgjsonSet);
    }
    match b.get(first)? {
        b'[' => Some(Format::MtgjsonAtomic),
        b'{' => Some(Format::MtgjsonAllPrintings),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_format_from_content() {
        let cases: [(&str, Result<Format, ImportError>); 14] = [
            ("name,mana_cost\nShock,{R}\n", Ok(Format::Csv)),
            ("\u{feff}name,mana_cost\n", Ok(Format::Csv)),
            (r#"[{"object":"card"}]"#, Ok(Format::Scryfall)),
            (r#"{"object":"list","data":[]}"#, Ok(Format::Scryfall)),
            (r#"{"meta":{"date":"x","version":"5"},"data":{"Shock":[{}]}}"#, Ok(Format::MtgjsonAtomic)),
            (r#"{"meta":{"v":"{\"]"},"data":{"10E":{"cards":[]}}}"#, Ok(Format::MtgjsonAllPrintings)),
            (r#"{"data":{"baseSetSize":1,"cards":[]}}"#, Ok(Format::MtgjsonSet)),
            (r#"{"baseSetSize":1,"block":"x","cards":[]}"#, Ok(Format::MtgjsonSet)),
            (r#"{"meta":{"date":"x"}"#, Err(ImportError::UnknownFormat)),
            (r#"{"foo":[1,2,{"a":"}"}]}"#, Err(ImportError::UnknownFormat)),
            ("hello world\n", Err(ImportError::UnknownFormat)),
            ("Name;Cost\nShock;{R}\n", Ok(Format::Csv)),
            ("PK\u{3}\u{4}\0\0,", Err(ImportError::UnknownFormat)),
            ("\n\t ", Err(ImportError::Empty)),
        ];
        for (text, want) in cases {
            assert_eq!(detect(text.as_bytes()), want, "{text}");
        }
    }
}
