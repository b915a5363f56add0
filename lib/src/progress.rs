//! How long work reports how far it has come, without drawing anything:
//! the generator, the solver and `verify` call a [`Progress`], and the
//! program decides what to show (the `chaosclock` binary draws bars on a
//! terminal and writes lines to a log; its server counts a solve for the
//! page). Work that can be abandoned asks [`Progress::cancelled`]: the
//! solver stops soon after it turns true ([`crate::solve::SolveError::Cancelled`]).

/// Receives the progress of long work, from any thread. Every method does
/// nothing unless implemented.
pub trait Progress: Sync {
    /// A new phase of `total` units (counted from 0), doing `what` (an
    /// empty `what` keeps the last one).
    fn start(&self, total: u64, what: &str) {
        let _ = (total, what);
    }

    /// `units` more units are done.
    fn advance(&self, units: u64) {
        let _ = units;
    }

    /// While the total is not known yet: `done` units so far, doing
    /// `what`.
    fn counted(&self, done: u64, what: &str) {
        let _ = (done, what);
    }

    /// The phase is `units` shorter than said (work found done already).
    fn shorten(&self, units: u64) {
        let _ = units;
    }

    /// The phase is `units` longer than said (work thought done that has
    /// to be done again).
    fn lengthen(&self, units: u64) {
        let _ = units;
    }

    /// Whether the work is no longer wanted. The solver asks before each
    /// signature it enumerates or solves (on a 12-slot opening, many times
    /// a second) and stops with [`crate::solve::SolveError::Cancelled`]
    /// once it is true; it must stay true once it has turned true.
    fn cancelled(&self) -> bool {
        false
    }
}
