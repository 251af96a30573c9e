//! Who gets the CPU first when the hall is busy.
//!
//! Hundreds of phones and screens fetching the live Rangliste must not slow down the Büro
//! typing results. The HTTP workers (parsing, rendering, sending bytes to viewers) run at a
//! lower OS priority than the threads that do database work: when both want the CPU, the
//! write of a result wins; when the machine is idle, nice values change nothing.

use crate::web::error::AppError;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// Default nice value of the HTTP worker threads (0 is normal, 19 the lowest).
pub const WORKER_NICE: i32 = 10;

type Job = Box<dyn FnOnce() + Send>;

/// Nice value of the thread that checks passwords: below everything else.
pub const PASSWORD_NICE: i32 = 19;

/// A fixed set of threads for blocking work: at normal priority for database work, or one
/// at the lowest priority for password checks.
///
/// Tokio's blocking pool would do, but its threads are spawned by the worker that needs
/// one and inherit that worker's lowered priority.
#[derive(Clone)]
pub struct Workers {
    sender: mpsc::Sender<Job>,
}

impl Workers {
    /// Starts `count` threads for database work; call it from a thread at normal priority.
    pub fn start(count: usize) -> std::io::Result<Self> {
        Self::spawn("db", count, None)
    }

    /// The one thread that checks passwords (Argon2: tens of milliseconds of CPU each). A
    /// flood of logins queues here, at the lowest priority, and never takes a database
    /// thread or the CPU the office's requests need.
    pub fn start_password_checks() -> std::io::Result<Self> {
        Self::spawn("password", 1, Some(PASSWORD_NICE))
    }

    fn spawn(name: &str, count: usize, nice: Option<i32>) -> std::io::Result<Self> {
        let (sender, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for index in 0..count.max(1) {
            let receiver = receiver.clone();
            std::thread::Builder::new()
                .name(format!("{name}-{index}"))
                .spawn(move || {
                    if let Some(nice) = nice {
                        lower_current_thread_priority(nice);
                    }
                    loop {
                        let job = match receiver.lock() {
                            Ok(receiver) => receiver.recv(),
                            Err(poisoned) => poisoned.into_inner().recv(),
                        };
                        let Ok(job) = job else { break };
                        // A panicking job loses its own answer (the caller sees an error),
                        // never the thread.
                        let _ = catch_unwind(AssertUnwindSafe(job));
                    }
                })?;
        }
        Ok(Workers { sender })
    }

    /// Runs `work` on one of the threads and waits for it without blocking the caller.
    pub async fn run<T, F>(&self, work: F) -> Result<T, AppError>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let (answer, answered) = tokio::sync::oneshot::channel();
        self.sender
            .send(Box::new(move || {
                let _ = answer.send(work());
            }))
            .map_err(|_| AppError::Internal("database threads have stopped".into()))?;
        answered
            .await
            .map_err(|_| AppError::Internal("database work panicked".into()))
    }
}

/// Lowers the calling thread's priority (Linux: the nice value is per thread).
pub fn lower_current_thread_priority(nice: i32) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: setpriority only reads its integer arguments; who = 0 is the calling thread.
        let failed = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, nice) } != 0;
        if failed {
            tracing::debug!(nice, "could not lower the worker thread's priority");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = nice;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_runs_on_the_threads_and_a_panic_costs_only_its_own_answer() {
        let threads = Workers::start(1).unwrap();
        let name = threads
            .run(|| std::thread::current().name().map(str::to_owned))
            .await
            .unwrap();
        assert_eq!(name.as_deref(), Some("db-0"));
        let panicked = threads.run(|| -> u32 { panic!("boom") }).await;
        assert!(matches!(panicked, Err(AppError::Internal(_))));
        assert_eq!(
            threads.run(|| 6 * 7).await.unwrap(),
            42,
            "the one thread survived"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn lowering_affects_only_the_calling_thread() {
        let nice = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let before = nice();
        let target = (before + 3).min(19);
        let lowered = std::thread::spawn(move || {
            lower_current_thread_priority(target);
            nice()
        })
        .join()
        .unwrap();
        assert_eq!(lowered, target);
        assert_eq!(nice(), before, "the caller keeps its priority");
    }
}
