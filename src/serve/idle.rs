//! Which open connection has been idle longest: at `--max-connections`,
//! the accept loop (`listen.rs`) closes it to make room for a new one, so
//! that a client holding idle connections up to the bound does not keep
//! everyone else waiting until the header timeout.
//!
//! Each connection has an [`Activity`], which its [`HeadCheck`] (`head.rs`)
//! keeps up to date: busy from a complete request head until its answer is
//! flushed, idle otherwise (also before a head is complete), with the time
//! it last became idle. [`Conns`] holds the activities of the open
//! connections and picks the one idle longest. The close itself is hyper's
//! graceful shutdown (`connection.rs`), which never cuts an answer short:
//! should a request have just begun on the connection picked, it is
//! answered first.
//!
//! [`HeadCheck`]: crate::serve::head::HeadCheck

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::Notify;

/// What one connection is doing, as its stream sees it.
#[derive(Debug)]
pub struct Activity {
    /// The server's clock (shared by all connections).
    epoch: Instant,
    /// A request head is complete and its answer not yet flushed.
    busy: AtomicBool,
    /// When it last became idle, in microseconds from `epoch`.
    idle_since: AtomicU64,
    /// Picked to be closed.
    evicted: AtomicBool,
    /// Wakes the connection's task when it is picked.
    close: Notify,
}

impl Default for Activity {
    fn default() -> Activity {
        Activity::new(Instant::now())
    }
}

impl Activity {
    fn new(epoch: Instant) -> Activity {
        let a = Activity {
            epoch,
            busy: AtomicBool::new(false),
            idle_since: AtomicU64::new(0),
            evicted: AtomicBool::new(false),
            close: Notify::new(),
        };
        a.idle_since.store(a.now(), Ordering::Relaxed);
        a
    }

    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_micros()).unwrap_or(u64::MAX)
    }

    /// Marks the connection busy (a request under way) or idle; the time
    /// it became idle is that of the change.
    pub fn set_busy(&self, busy: bool) {
        if !busy && self.busy.load(Ordering::Acquire) {
            self.idle_since.store(self.now(), Ordering::Relaxed);
        }
        self.busy.store(busy, Ordering::Release);
    }

    /// Whether it was picked to be closed.
    pub fn evicted(&self) -> bool {
        self.evicted.load(Ordering::Acquire)
    }

    /// Waits until it is picked to be closed.
    pub async fn picked(&self) {
        self.close.notified().await;
    }
}

/// The activities of the open connections.
#[derive(Debug)]
pub struct Conns {
    epoch: Instant,
    next: AtomicU64,
    open: Mutex<HashMap<u64, Arc<Activity>>>,
}

impl Default for Conns {
    fn default() -> Conns {
        Conns { epoch: Instant::now(), next: AtomicU64::new(0), open: Mutex::default() }
    }
}

/// A connection's place in [`Conns`], given up when dropped.
#[derive(Debug)]
pub struct Registered {
    conns: Arc<Conns>,
    id: u64,
    /// Its activity.
    pub activity: Arc<Activity>,
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.conns.open.lock().unwrap_or_else(|e| e.into_inner()).remove(&self.id);
    }
}

impl Conns {
    /// Adds a connection just accepted (idle from now on).
    pub fn register(self: &Arc<Conns>) -> Registered {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let activity = Arc::new(Activity::new(self.epoch));
        self.open.lock().unwrap_or_else(|e| e.into_inner()).insert(id, Arc::clone(&activity));
        Registered { conns: Arc::clone(self), id, activity }
    }

    /// Picks the connection idle longest, not picked before, and wakes it
    /// to close; whether there was one.
    pub fn evict_idlest(&self) -> bool {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let idlest = open
            .values()
            .filter(|a| !a.busy.load(Ordering::Acquire) && !a.evicted())
            .min_by_key(|a| a.idle_since.load(Ordering::Relaxed));
        let Some(a) = idlest else { return false };
        a.evicted.store(true, Ordering::Release);
        a.close.notify_one();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_idlest_is_picked_never_a_busy_one_and_never_twice() {
        let conns = Arc::new(Conns::default());
        let [a, b, c] = [(); 3].map(|()| {
            let r = conns.register();
            std::thread::sleep(std::time::Duration::from_millis(2));
            r
        });
        // a is busy; b became idle after c.
        a.activity.set_busy(true);
        b.activity.set_busy(true);
        std::thread::sleep(std::time::Duration::from_millis(2));
        b.activity.set_busy(false);
        assert!(conns.evict_idlest());
        assert!(c.activity.evicted() && !b.activity.evicted() && !a.activity.evicted());
        assert!(conns.evict_idlest());
        assert!(b.activity.evicted() && !a.activity.evicted());
        assert!(!conns.evict_idlest(), "only a busy one is left");
        drop(a);
        assert!(!conns.evict_idlest(), "gone once dropped");
        assert_eq!(conns.open.lock().unwrap().len(), 2);
    }
}
