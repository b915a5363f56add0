//! Echoing user input in error messages: control characters (newlines,
//! tabs, escapes, ...) are written as Rust-style escapes (`\n`, `\t`,
//! `\u{1b}`), so that every message stays on one line and cannot move the
//! terminal's cursor. Other text, Chinese included, is kept as it is.

use std::borrow::Cow;

/// `text` with every control character escaped (see the module doc); the
/// text itself when it has none.
///
/// ```
/// assert_eq!(chaosclock::escape_control("1,2,\n3"), "1,2,\\n3");
/// assert_eq!(chaosclock::escape_control("甲 ok"), "甲 ok");
/// ```
pub fn escape_control(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_only_control_characters() {
        assert_eq!(escape_control("a\r\nb\tc\u{1b}[2J"), "a\\r\\nb\\tc\\u{1b}[2J");
        assert_eq!(escape_control("\u{85}x\u{7f}"), "\\u{85}x\\u{7f}");
        assert!(matches!(escape_control("2,8,11;1;0"), Cow::Borrowed(_)));
        assert_eq!(escape_control("乙 \\n"), "乙 \\n");
    }
}
