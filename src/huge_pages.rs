//! Transparent huge pages: off for every command but `generate`.
//!
//! mimalloc asks the kernel for 2 MiB pages where it may (`madvise`), and
//! gives freed memory back after 10 ms. A reader of tables allocates many
//! small buffers that live briefly (model sets, decoded blocks), and each
//! time it touches memory given back, the kernel zeroes a whole 2 MiB page:
//! that was 37% of the time of a `query` batch on the 12-slot table with
//! depths, which takes half the time with 4 KiB pages (docs/depths.md,
//! "Queries on the 12-slot table"). The solver is as fast either way and
//! peaks about a tenth lower without them. The generator keeps them: its
//! arrays are large and live long, and it was no faster without.
//!
//! The setting is the process's (`PR_SET_THP_DISABLE`): it holds for
//! memory already mapped and for every thread.

/// Turns transparent huge pages off for this process. A kernel that
/// cannot (not Linux, or older than 3.15) keeps them: this is about speed
/// only, so nothing is reported.
pub fn turn_off() {
    #[cfg(target_os = "linux")]
    let _ = rustix::thread::disable_transparent_huge_pages(true);
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    #[test]
    fn they_are_off_afterwards() {
        super::turn_off();
        assert_eq!(rustix::thread::transparent_huge_pages_are_disabled().ok(), Some(true));
    }
}
