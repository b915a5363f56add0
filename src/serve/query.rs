//! Query strings of the API: `key=value` pairs separated by `&`, with
//! percent-escapes and `+` for a space (as browsers send them).
//!
//! Strict on purpose: a key that the endpoint does not know, a key given
//! twice, a bad escape or text that is not UTF-8 is a 400 with a one-line
//! message, and nothing longer than [`MAX_QUERY_BYTES`] is read.

use std::fmt;

/// The longest query string read, in bytes (a 12-slot game of 200 moves
/// takes about 600).
pub const MAX_QUERY_BYTES: usize = 4096;

/// Why a query string was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryError(pub String);

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for QueryError {}

/// A parsed query string: its pairs in order, each key once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// Parses `raw` (the part of the URI after `?`, without it), allowing
    /// only the keys in `known`.
    ///
    /// # Errors
    /// Too long, a bad escape, not UTF-8, an unknown or repeated key.
    pub fn parse(raw: &str, known: &[&str]) -> Result<Query, QueryError> {
        if raw.len() > MAX_QUERY_BYTES {
            return Err(QueryError(format!("query string longer than {MAX_QUERY_BYTES} bytes")));
        }
        let mut pairs: Vec<(String, String)> = Vec::new();
        for part in raw.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            let key = decode(k)?;
            let value = decode(v)?;
            if !known.contains(&key.as_str()) {
                let expected = known.join(", ");
                return Err(QueryError(format!(
                    "unknown parameter '{}' (expected one of: {expected})",
                    shown(&key)
                )));
            }
            if pairs.iter().any(|(k, _)| *k == key) {
                return Err(QueryError(format!("parameter '{key}' given twice")));
            }
            pairs.push((key, value));
        }
        Ok(Query { pairs })
    }

    /// The value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The value of `key`.
    ///
    /// # Errors
    /// It is missing.
    pub fn require(&self, key: &str) -> Result<&str, QueryError> {
        self.get(key).ok_or_else(|| QueryError(format!("missing parameter '{key}'")))
    }
}

/// `text` for a message: control characters escaped, at most 64 characters.
fn shown(text: &str) -> String {
    let cut: String = text.chars().take(64).collect();
    chaosclock::escape_control(&cut).into_owned()
}

/// Decodes percent-escapes and `+`.
///
/// # Errors
/// A `%` not followed by two hex digits, or bytes that are not UTF-8.
pub fn decode(text: &str) -> Result<String, QueryError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
                let byte = hex.and_then(|h| u8::from_str_radix(h, 16).ok()).ok_or_else(|| {
                    QueryError(format!("bad percent-escape in '{}'", shown(text)))
                })?;
                out.push(byte);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out)
        .map_err(|_| QueryError(format!("parameter text '{}' is not UTF-8", shown(text))))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Percent-encodes every byte outside a few safe ones.
    fn encode(text: &str) -> String {
        text.bytes()
            .map(|b| match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b',' | b'-' | b';' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect()
    }

    #[test]
    fn pairs_are_decoded() {
        let q = Query::parse("pos=2%2C1%3B4&moves=6,3&rule=when-stuck", &["pos", "moves", "rule"])
            .unwrap();
        assert_eq!(q.get("pos"), Some("2,1;4"));
        assert_eq!(q.get("moves"), Some("6,3"));
        assert_eq!(q.require("rule").unwrap(), "when-stuck");
        assert_eq!(Query::parse("a=b+c", &["a"]).unwrap().get("a"), Some("b c"));
    }

    #[test]
    fn bad_queries_are_refused() {
        let known = &["pos"];
        assert!(Query::parse("x=1", known).unwrap_err().0.contains("unknown parameter 'x'"));
        assert!(Query::parse("pos=1&pos=2", known).unwrap_err().0.contains("twice"));
        assert!(Query::parse("pos=%zz", known).unwrap_err().0.contains("percent-escape"));
        assert!(Query::parse("pos=%", known).unwrap_err().0.contains("percent-escape"));
        assert!(Query::parse("pos=%ff", known).unwrap_err().0.contains("UTF-8"));
        let long = format!("pos={}", "1".repeat(MAX_QUERY_BYTES));
        assert!(Query::parse(&long, known).unwrap_err().0.contains("longer"));
        assert_eq!(
            Query::parse("", known).unwrap().require("pos").unwrap_err().0,
            "missing parameter 'pos'"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Any text: a query or a one-line error, never a panic.
        #[test]
        fn any_text_parses_or_fails_on_one_line(raw in ".{0,200}") {
            match Query::parse(&raw, &["pos", "moves", "rule"]) {
                Ok(q) => prop_assert!(q.pairs.len() <= 3),
                Err(e) => prop_assert!(!e.0.contains('\n') && e.0.len() < 400),
            }
        }

        /// Encoded values decode to themselves.
        #[test]
        fn encoded_values_round_trip(pos in "\\PC{0,60}", moves in "[0-9,a-z ]{0,40}") {
            let raw = format!("pos={}&moves={}", encode(&pos), encode(&moves));
            let q = Query::parse(&raw, &["pos", "moves"]).unwrap();
            prop_assert_eq!(q.get("pos"), Some(pos.as_str()));
            prop_assert_eq!(q.get("moves"), Some(moves.as_str()));
        }

        /// Random bytes (as a lossy string) never panic the decoder.
        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..100)) {
            let raw = String::from_utf8_lossy(&bytes);
            let _ = Query::parse(&raw, &["pos"]);
        }
    }
}
