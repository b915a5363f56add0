//! `--cors ORIGIN`: what an origin the server may allow looks like.

/// Checks a `--cors` value: `*`, or `http://` or `https://` with a host and
/// an optional port, and no path.
///
/// # Errors
/// What is wrong with it, in one line.
pub fn check_origin(text: &str) -> Result<String, String> {
    if text == "*" {
        return Ok(text.to_string());
    }
    let rest = text
        .strip_prefix("http://")
        .or_else(|| text.strip_prefix("https://"))
        .ok_or("an origin starts with http:// or https:// (e.g. https://example.org), or is *")?;
    let host = rest.strip_suffix('/').unwrap_or(rest);
    let fine = |c: char| c.is_ascii_alphanumeric() || "-.:[]".contains(c);
    if host.is_empty() || !host.chars().all(fine) {
        return Err("an origin is a scheme and a host with an optional port, no path \
                    (e.g. https://example.org:8443)"
            .into());
    }
    Ok(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_checked() {
        assert!(check_origin("*").is_ok());
        assert!(check_origin("https://example.org").is_ok());
        assert!(check_origin("http://127.0.0.1:8000/").is_ok());
        assert!(check_origin("http://[::1]:8000").is_ok());
        for bad in ["example.org", "ftp://x", "https://", "https://x/path", "https://a b"] {
            assert!(check_origin(bad).is_err(), "{bad}");
        }
    }
}
