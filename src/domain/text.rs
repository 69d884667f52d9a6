//! Control characters in text a user types or imports: which characters they are, refusing or removing
//! them, and showing them harmlessly on a terminal; and text as it goes in a URL ([`url_query`]).
//!
//! A control character is any C0 character (U+0000 to U+001F: NUL, ESC, carriage return, ...), DEL, any
//! C1 character (U+0080 to U+009F) and the bidirectional overrides and isolates (U+202A to U+202E,
//! U+2066 to U+2069), which reorder what a terminal or a page shows. Only a line feed is ever allowed, and
//! only in free text that may run over several lines (a ruling, a remark).

/// Whether a character is a control character in the sense above (the line feed included), or an invisible or
/// direction character that hides or reorders what is shown: the marks LRM, RLM and ALM (U+200E, U+200F,
/// U+061C), the line and paragraph separators (U+2028, U+2029), and the zero-width space, word joiner and
/// byte-order mark (U+200B, U+2060, U+FEFF; an import's leading byte-order mark is stripped before), and the
/// other characters that show nothing: the soft hyphen (U+00AD), the combining grapheme joiner (U+034F), the
/// Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the Mongolian vowel separator (U+180E), the invisible
/// operators (U+2061 to U+2064), the deprecated format characters (U+206A to U+206F), the interlinear annotation
/// marks (U+FFF9 to U+FFFB) and the tag characters (U+E0000 to U+E007F). The joiners ZWNJ and ZWJ (U+200C,
/// U+200D) and the variation selectors stay: some scripts and emoji need them.
pub fn is_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{061c}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{200b}'
                | '\u{2060}'
                | '\u{feff}'
                | '\u{00ad}'
                | '\u{034f}'
                | '\u{115f}'
                | '\u{1160}'
                | '\u{3164}'
                | '\u{ffa0}'
                | '\u{180e}'
                | '\u{2061}'..='\u{2064}'
                | '\u{206a}'..='\u{206f}'
                | '\u{fff9}'..='\u{fffb}'
                | '\u{e0000}'..='\u{e007f}'
        )
}

/// The first control character of `text` (a line feed only when `lines` is false), if any.
pub fn first_control(text: &str, lines: bool) -> Option<char> {
    // Plain ASCII (most names and cells) holds only C0 controls and DEL: read its bytes without decoding.
    if text.is_ascii() {
        return text.bytes().find(|&b| (b < 0x20 || b == 0x7f) && !(lines && b == b'\n')).map(char::from);
    }
    text.chars().find(|&c| is_control(c) && !(lines && c == '\n'))
}

/// The clause an import's reply adds when it removed control characters from the file (empty when none).
pub fn removed_clause(removed: usize) -> String {
    match removed {
        0 => String::new(),
        n => format!("; removed {} from the file's text", crate::domain::words::count(n, "control character")),
    }
}

/// How a control character is named in messages: its usual name, or its code point.
pub fn control_name(c: char) -> String {
    match c {
        '\0' => "NUL".into(),
        '\u{1b}' => "ESC".into(),
        '\t' => "a tab".into(),
        '\n' => "a line break".into(),
        '\r' => "a carriage return".into(),
        '\u{7f}' => "DEL".into(),
        _ => format!("U+{:04X}", u32::from(c)),
    }
}

/// Refuses text holding a control character (with `lines`, a line feed is allowed): the message names
/// the field, the character and the fix, and never holds the character itself.
pub fn check(field: &str, text: &str, lines: bool) -> Result<(), String> {
    match first_control(text, lines) {
        None => Ok(()),
        Some(c) => Err(format!("{field} holds a control character ({}): type it again without it", control_name(c))),
    }
}

/// The text without its control characters (keeping line feeds when `lines`), and how many were removed.
pub fn strip(text: &str, lines: bool) -> (String, usize) {
    let mut removed = 0;
    let kept = text
        .chars()
        .filter(|&c| {
            let drop = is_control(c) && !(lines && c == '\n');
            removed += usize::from(drop);
            !drop
        })
        .collect();
    (kept, removed)
}

/// Removes the control characters of `text` in place and adds how many to `count`.
pub fn strip_in_place(text: &mut String, count: &mut usize) {
    if first_control(text, false).is_some() {
        let (kept, n) = strip(text, false);
        *text = kept;
        *count += n;
    }
}

/// The text safe to print on a terminal: every control character but the line feed (kept when `lines`)
/// is written as a visible escape such as `\u{1b}`.
pub fn escape(text: &str, lines: bool) -> String {
    if first_control(text, lines).is_none() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_control(c) && !(lines && c == '\n') {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// Text as it goes in a URL's query or path (`Ana Ó` is `Ana%20%C3%93`): every byte but the unreserved ones
/// (letters, digits, `-._~`) percent-encoded.
pub fn url_query(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_ascii_is_read_as_the_characters_are() {
        for b in 0u8..=127 {
            for lines in [false, true] {
                let text = format!("ab{}c", char::from(b));
                let general = text.chars().find(|&c| is_control(c) && !(lines && c == '\n'));
                assert_eq!(first_control(&text, lines), general, "byte {b}, lines {lines}");
            }
        }
    }

    #[test]
    fn control_characters_are_found_named_and_removed() {
        assert!(check("the judge", "Kim", false).is_ok());
        let msg = check("the judge", "\u{1b}[2JKim", false).unwrap_err();
        assert!(msg.contains("ESC") && !msg.contains('\u{1b}'), "{msg}");
        assert!(check("the ruling", "line one\nline two", true).is_ok());
        assert!(check("the name", "a\nb", false).unwrap_err().contains("line break"));
        assert!(check("x", "a\u{202e}b", true).unwrap_err().contains("U+202E"));
        assert!(check("x", "a\u{85}b", true).is_err());
        assert_eq!(strip("Sh\u{0}ock\u{1b}", false), ("Shock".to_string(), 2));
        assert_eq!(strip("a\nb\r", true), ("a\nb".to_string(), 1));
        let (mut s, mut n) = ("Bolt\u{7f}".to_string(), 1);
        strip_in_place(&mut s, &mut n);
        assert_eq!((s.as_str(), n), ("Bolt", 2));
    }

    #[test]
    fn characters_that_show_nothing_are_refused_and_the_joiners_and_selectors_kept() {
        let hidden = [
            '\u{00ad}',
            '\u{034f}',
            '\u{115f}',
            '\u{1160}',
            '\u{3164}',
            '\u{ffa0}',
            '\u{180e}',
            '\u{2061}',
            '\u{2064}',
            '\u{206a}',
            '\u{206f}',
            '\u{fff9}',
            '\u{fffb}',
            '\u{e0001}',
            '\u{e007f}',
        ];
        for c in hidden {
            let msg = check("the ruling", &format!("Shock{c} deals 2"), true).unwrap_err();
            assert!(msg.contains(&format!("U+{:04X}", u32::from(c))), "{msg}");
        }
        for kept in ["Zo\u{200d}e", "\u{0928}\u{094d}\u{200c}", "\u{2764}\u{fe0f}", "Ana-Lucía"] {
            assert!(check("the name", kept, false).is_ok(), "{kept:?}");
        }
    }

    #[test]
    fn escaping_keeps_text_readable_and_inert() {
        assert_eq!(escape("Kim", false), "Kim");
        assert_eq!(escape("\u{1b}[2J", false), "\\u{1b}[2J");
        assert_eq!(escape("a\nb", false), "a\\u{a}b");
        assert_eq!(escape("a\nb", true), "a\nb");
        assert_eq!(escape("Æther Vial — ok", false), "Æther Vial — ok");
    }
}
