//! [`CodeMap`]: something per value code, as the JSON of `generate`,
//! `openings` and `manifest` writes it.

use serde::{Deserialize, Serialize};

/// Something per value code, written as a JSON object with the keys "4",
/// "3", "2", "1", "0" in that order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeMap<T> {
    #[serde(rename = "4")]
    c4: T,
    #[serde(rename = "3")]
    c3: T,
    #[serde(rename = "2")]
    c2: T,
    #[serde(rename = "1")]
    c1: T,
    #[serde(rename = "0")]
    c0: T,
}

impl<T> CodeMap<T> {
    /// The map with `f(code)` for each code.
    pub fn from_fn(mut f: impl FnMut(usize) -> T) -> CodeMap<T> {
        CodeMap { c4: f(4), c3: f(3), c2: f(2), c1: f(1), c0: f(0) }
    }

    /// The entry of value code `code` (0 to 4).
    ///
    /// # Panics
    /// If `code` is over 4.
    pub fn get(&self, code: usize) -> &T {
        match code {
            4 => &self.c4,
            3 => &self.c3,
            2 => &self.c2,
            1 => &self.c1,
            0 => &self.c0,
            _ => panic!("value code {code} is not 0 to 4"),
        }
    }
}
