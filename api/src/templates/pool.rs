//! Where template computations run, so that one user's cannot starve the API: on the blocking
//! pool, at most `LUDIS_TEMPLATE_WORKERS` at a time across the API, and one at a time per user (a
//! user's next call waits in line behind their running one, as the console's side-by-side series
//! do). Each call has `LUDIS_TEMPLATE_TIMEOUT_SECS` for everything — waiting for its turn and a
//! worker, reading and computing: a call still waiting then is answered busy ([`Stop::UserBusy`],
//! [`Stop::WorkersBusy`]); a computation still running then is stopped ([`Stop::TimedOut`]), as
//! it is when the caller goes away. A turn and a worker are held by the computation itself and
//! given back when it ends, not when the request does: a stopped computation holds its worker
//! until it has seen the flag.

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use tokio::{
    sync::{OwnedSemaphorePermit, Semaphore},
    time::{Instant, timeout_at},
};

use super::{
    TemplateError,
    limits::{CancelOnDrop, Limits},
};
use crate::settings::Settings;

/// Why a computation gave no answer.
#[derive(Debug)]
pub enum Stop {
    /// The caller's own earlier computation was still running when the time was up.
    UserBusy,
    /// Every worker was busy until the time was up.
    WorkersBusy,
    /// The computation ran past the time and was stopped.
    TimedOut,
    /// What the computation refused (a bad column, too many rows…).
    Failed(TemplateError),
    /// The computation panicked.
    Crashed(String),
}

type Users = Arc<Mutex<HashMap<String, Arc<Semaphore>>>>;

/// The template computations' workers.
#[derive(Debug)]
pub struct Pool {
    workers: Arc<Semaphore>,
    size: usize,
    /// One turn a user who has a computation running or waiting (removed after the last one).
    users: Users,
    /// Calls waiting for their turn or a worker.
    waiting: AtomicUsize,
    max_rows: usize,
    timeout: Duration,
}

impl Pool {
    /// `workers` computations at a time (0: one a core), each reading at most `max_rows` rows
    /// and taking at most `timeout`.
    pub fn new(workers: usize, max_rows: usize, timeout: Duration) -> Self {
        let size = match workers {
            0 => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            n => n,
        };
        Self {
            workers: Arc::new(Semaphore::new(size)),
            size,
            users: Users::default(),
            waiting: AtomicUsize::new(0),
            max_rows,
            timeout,
        }
    }

    pub fn from_settings(s: &Settings) -> Self {
        Self::new(
            usize::try_from(s.template_workers).unwrap_or(usize::MAX),
            usize::try_from(s.template_max_rows).unwrap_or(usize::MAX),
            Duration::from_secs(s.template_timeout_secs),
        )
    }

    /// Computations that may run at a time.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Workers free now.
    pub fn idle(&self) -> usize {
        self.workers.available_permits()
    }

    /// Calls waiting now for their user's turn or for a worker.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    pub fn max_rows(&self) -> usize {
        self.max_rows
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Waits for `user`'s turn, then for a worker, within the call's time.
    pub async fn admit(&self, user: &str) -> Result<Ticket, Stop> {
        let deadline = Instant::now() + self.timeout;
        self.waiting.fetch_add(1, Ordering::Relaxed);
        let _waited = Waited(&self.waiting);
        let mut turn = Turn::join(&self.users, user);
        let line = turn.line.clone();
        turn.permit = Some(
            timeout_at(deadline, line.acquire_owned())
                .await
                .map_err(|_| Stop::UserBusy)?
                .map_err(|_| Stop::Crashed("the user's line was closed".into()))?,
        );
        let worker = timeout_at(deadline, self.workers.clone().acquire_owned())
            .await
            .map_err(|_| Stop::WorkersBusy)?
            .map_err(|_| Stop::Crashed("the workers were closed".into()))?;
        let limits = Limits::new(self.max_rows);
        Ok(Ticket {
            guard: limits.cancel.on_drop(),
            limits,
            deadline,
            held: Held {
                _worker: worker,
                _turn: turn,
            },
        })
    }
}

/// Counts a call out of [`Pool::waiting`] however its wait ends.
struct Waited<'a>(&'a AtomicUsize);

impl Drop for Waited<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A user's place in their own line; the line is forgotten when nobody is in it any more.
#[derive(Debug)]
struct Turn {
    users: Users,
    user: String,
    line: Arc<Semaphore>,
    permit: Option<OwnedSemaphorePermit>,
}

impl Turn {
    fn join(users: &Users, user: &str) -> Self {
        let mut lines = users.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let line = lines
            .entry(user.to_owned())
            .or_insert_with(|| Arc::new(Semaphore::new(1)))
            .clone();
        Self {
            users: users.clone(),
            user: user.to_owned(),
            line,
            permit: None,
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        // The permit holds the line too: give it back first.
        drop(self.permit.take());
        let mut lines = self
            .users
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Only the map and this turn hold the line: nobody else runs or waits.
        if lines
            .get(&self.user)
            .is_some_and(|l| Arc::ptr_eq(l, &self.line) && Arc::strong_count(l) == 2)
        {
            lines.remove(&self.user);
        }
    }
}

/// What a computation holds while it runs.
#[derive(Debug)]
struct Held {
    _worker: OwnedSemaphorePermit,
    _turn: Turn,
}

/// A call's turn and worker: run its computation with [`Ticket::run`]. Dropping it (the request
/// went away) sets the computation's flag.
#[derive(Debug)]
pub struct Ticket {
    held: Held,
    limits: Limits,
    deadline: Instant,
    guard: CancelOnDrop,
}

impl Ticket {
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The time left to the call (for work with its own timeout, such as a workbook's worker).
    pub fn left(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// Runs `job` on the blocking pool; it holds the turn and the worker until it returns.
    /// Past the call's time the flag is set and the answer is [`Stop::TimedOut`].
    pub async fn run<T: Send + 'static>(
        self,
        job: impl FnOnce(&Limits) -> Result<T, TemplateError> + Send + 'static,
    ) -> Result<T, Stop> {
        let Self {
            held,
            limits,
            deadline,
            guard,
        } = self;
        let cancel = limits.cancel.clone();
        let running = tokio::task::spawn_blocking(move || {
            let out = job(&limits);
            drop(held);
            out
        });
        let out = match timeout_at(deadline, running).await {
            Ok(Ok(out)) => out.map_err(Stop::Failed),
            Ok(Err(e)) => Err(Stop::Crashed(e.to_string())),
            Err(_) => {
                cancel.cancel();
                Err(Stop::TimedOut)
            }
        };
        drop(guard);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(workers: usize, timeout_ms: u64) -> Pool {
        Pool::new(workers, 10, Duration::from_millis(timeout_ms))
    }

    // The calls below that must wait are refused once their (short) time is up: what they wait
    // for is held throughout, so the outcome does not depend on the machine's speed.

    #[tokio::test]
    async fn a_user_waits_for_their_own_computation_and_then_for_a_worker() {
        let p = pool(2, 100);
        let ann = p.admit("ann").await.unwrap();
        assert_eq!(p.idle(), 1);
        // Ann's second call waits for her first until its time is up.
        assert!(matches!(p.admit("ann").await, Err(Stop::UserBusy)));
        // Bob is not in Ann's line: he takes the other worker.
        let bob = p.admit("bob").await.unwrap();
        assert_eq!(p.idle(), 0);
        // Cy is in no line, but no worker is free.
        assert!(matches!(p.admit("cy").await, Err(Stop::WorkersBusy)));
        drop(ann);
        let again = p.admit("ann").await.unwrap();
        drop((bob, again));
        assert_eq!(p.idle(), 2);
        assert_eq!(p.waiting(), 0);
        assert!(p.users.lock().unwrap().is_empty(), "the lines are forgotten");
    }

    #[tokio::test]
    async fn a_waiting_call_gets_the_worker_when_it_is_given_back() {
        let p = Arc::new(pool(1, 60_000));
        let ann = p.admit("ann").await.unwrap();
        let waiter = tokio::spawn({
            let p = p.clone();
            async move { p.admit("bob").await.map(drop).is_ok() }
        });
        while p.waiting() == 0 {
            tokio::task::yield_now().await;
        }
        drop(ann);
        assert!(waiter.await.unwrap());
    }

    #[tokio::test]
    async fn the_worker_is_held_until_the_computation_ends_and_dropping_the_ticket_cancels() {
        let p = pool(1, 60_000);
        let ticket = p.admit("ann").await.unwrap();
        let cancel = ticket.limits().cancel.clone();
        drop(ticket);
        assert!(
            cancel.is_cancelled(),
            "a call that goes away stops its computation"
        );

        let ticket = p.admit("ann").await.unwrap();
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
        let running = tokio::spawn(ticket.run(move |limits| {
            started_tx.send(limits.cancel.clone()).unwrap();
            go_rx.recv().unwrap();
            limits.cancel.check()?;
            Ok(1)
        }));
        let cancel = tokio::task::spawn_blocking(move || started_rx.recv().unwrap())
            .await
            .unwrap();
        // The request goes away: the flag is set, but the worker is the computation's until it
        // has returned.
        running.abort();
        let _ = running.await;
        assert!(cancel.is_cancelled());
        assert_eq!(p.idle(), 0);
        go_tx.send(()).unwrap();
        while p.idle() == 0 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn a_computation_past_the_time_is_stopped() {
        let p = pool(1, 100);
        let ticket = p.admit("ann").await.unwrap();
        let out = ticket
            .run(|limits| {
                while !limits.cancel.is_cancelled() {
                    std::thread::yield_now();
                }
                Err::<(), _>(TemplateError::Cancelled)
            })
            .await;
        assert!(matches!(out, Err(Stop::TimedOut)), "{out:?}");
    }
}
