//! The one thread that makes documents, one at a time, and gives their memory back.

use std::sync::{Mutex, OnceLock};

type Job = Box<dyn FnOnce() + Send>;

/// Makes a document on the one thread that makes documents, and gives the memory back
/// afterwards. A thousand Standblätter take about a hundred MB for a moment; two at once
/// would double that, and glibc keeps freed memory in the arena of the thread that used it
/// (a thousand Standblätter left +200 MB behind per request on the web threads). On one
/// thread, one document at a time, `malloc_trim` returns it. None if the thread is gone.
pub async fn render<T: Send + 'static>(make: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    static THREAD: OnceLock<Option<Mutex<std::sync::mpsc::Sender<Job>>>> = OnceLock::new();
    let sender = THREAD.get_or_init(|| {
        let (sender, jobs) = std::sync::mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("documents".into())
            .spawn(move || {
                keep_big_blocks_apart();
                for job in jobs {
                    // Before, too: what the web threads freed since goes back first, so it
                    // does not add to the document's peak.
                    give_memory_back();
                    job();
                    give_memory_back();
                }
            })
            .ok()
            .map(|_| Mutex::new(sender))
    });
    let (answer, answered) = tokio::sync::oneshot::channel();
    let job: Job = Box::new(move || {
        let _ = answer.send(make());
    });
    sender
        .as_ref()?
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .send(job)
        .ok()?;
    answered.await.ok()
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn give_memory_back() {
    // SAFETY: malloc_trim only releases free memory of the allocator; it touches no live
    // allocation and is safe to call at any time from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn give_memory_back() {}

/// Blocks of 256 KB and more (a document's output, its growing buffers) are mapped on
/// their own and returned the moment they are freed; glibc would otherwise raise that
/// threshold after the first big free and keep such blocks in its heap.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_big_blocks_apart() {
    // SAFETY: mallopt only changes an allocator setting; any value is valid for it.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 * 1024);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_big_blocks_apart() {}
