//! Graceful shutdown: on SIGTERM or Ctrl-C (SIGINT) the server stops
//! accepting connections, lets the requests under way finish for at most
//! `--grace` seconds (10 by default), and exits with code 0 (`listen.rs`
//! does the stopping).
//!
//! The signals are caught from [`Signals::catch`] on, which `serve` calls
//! before it prints its address, so a signal sent once the address is
//! known is never the default one that kills the process.

use std::time::Duration;

use anyhow::{Context, Result};
use tokio::sync::watch;

/// The signals that stop the server, caught.
#[derive(Debug)]
pub struct Signals {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
}

impl Signals {
    /// Catches SIGTERM and SIGINT from now on (inside the runtime).
    ///
    /// # Errors
    /// The handlers cannot be installed.
    pub fn catch() -> Result<Signals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let term = signal(SignalKind::terminate()).context("catching SIGTERM")?;
            let int = signal(SignalKind::interrupt()).context("catching SIGINT")?;
            Ok(Signals { term, int })
        }
        #[cfg(not(unix))]
        Ok(Signals {})
    }

    /// Waits for one of them; its name.
    pub async fn recv(mut self) -> &'static str {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.term.recv() => "SIGTERM",
                _ = self.int.recv() => "SIGINT",
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "Ctrl-C"
        }
    }
}

/// The flag the connections watch: `true` once the server stops.
pub type Stop = watch::Receiver<bool>;

/// Waits until `stop` is set (or its sender is gone).
pub async fn stopped(stop: &mut Stop) {
    let _ = stop.wait_for(|&s| s).await;
}

/// A flag set when one of `signals` arrives, with a line on stderr that
/// names the `grace` the requests under way have.
pub fn on_signal(signals: Signals, grace: Duration) -> Stop {
    let (tx, rx) = watch::channel(false);
    tokio::spawn(async move {
        let name = signals.recv().await;
        crate::serve::log::line(&format!(
            "serve: {name}: no new connections; the requests under way have {} s to finish",
            grace.as_secs()
        ));
        let _ = tx.send(true);
        // Keep the flag's sender: a closed channel would also read as set.
        std::future::pending::<()>().await;
    });
    rx
}
