//! `--threads T` of `generate`: at least one worker thread, at most
//! [`MAX_THREADS_PER_CORE`] per core and [`MAX_THREADS`], checked by its
//! clap parser ([`parse_threads`]).

/// The most worker threads per core `--threads` accepts: more only cost
/// memory and the time to start them (100,000 threads took over a minute).
pub const MAX_THREADS_PER_CORE: usize = 4;

/// The most worker threads `--threads` accepts on any machine.
pub const MAX_THREADS: usize = 1024;

/// A number of worker threads within the bounds for this machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Threads(usize);

impl Threads {
    /// `t` threads on a machine of `cores` cores.
    ///
    /// # Errors
    /// `t` is 0 or above the bounds, named with the bound.
    pub fn new(t: usize, cores: usize) -> Result<Threads, String> {
        let most = cores.saturating_mul(MAX_THREADS_PER_CORE).min(MAX_THREADS);
        match t {
            0 => Err("give at least one thread".to_string()),
            t if t > most => Err(format!(
                "too many: at most {most} ({MAX_THREADS_PER_CORE} per core on {cores} core{}, never more than {MAX_THREADS})",
                if cores == 1 { "" } else { "s" }
            )),
            t => Ok(Threads(t)),
        }
    }

    /// The number of threads.
    pub fn get(self) -> usize {
        self.0
    }
}

/// The cores this process may use (1 if unknown).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// `--threads T`: a number, then [`Threads`] on this machine.
///
/// # Errors
/// Not a number, or not such a number of threads.
pub fn parse_threads(text: &str) -> Result<Threads, String> {
    let t: usize = text.parse().map_err(|e: std::num::ParseIntError| e.to_string())?;
    Threads::new(t, cores())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_bounded_per_core() {
        assert_eq!(Threads::new(8, 2).map(Threads::get), Ok(8));
        assert_eq!(Threads::new(0, 2).unwrap_err(), "give at least one thread");
        assert!(Threads::new(9, 2).unwrap_err().starts_with("too many: at most 8 (4 per core"));
        assert_eq!(Threads::new(MAX_THREADS, 1000).map(Threads::get), Ok(MAX_THREADS));
        assert!(Threads::new(MAX_THREADS + 1, 1000).is_err());
    }
}
