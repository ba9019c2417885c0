//! The threads a play-test's runs are made on. They are kept between play-tests, each with the
//! simulation of its last run: a GM who changes a trap and asks for the report again does not
//! pay again for what a new thread and a new simulation cost (the schedules built on the first
//! move, the fire grid painted on the first fire, the buffers grown): for a 50-run report that
//! was a tenth of the time.
//!
//! Whatever thread makes a run, its summary is the same: each run restarts the simulation from
//! the scene and its seed (`tests/playtest.rs` checks a restarted simulation against a new one),
//! and the calling thread hands the summaries on in seed order.

use super::{RunSummary, play_and_summarize};
use crate::scene::Scene;
use crate::sim::Simulation;
use std::any::Any;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Most threads kept between play-tests; a play-test on more threads (or while another one has
/// the kept threads) makes its runs on threads of its own, ended with it. Each kept thread
/// holds the simulation of its last run: its world and its fire grid (at most
/// [`MAX_SCENE_CELLS`](crate::sim::fire_front::MAX_SCENE_CELLS) cells).
pub const MAX_KEPT_THREADS: usize = 16;

/// Runs made ahead of the oldest run not yet handed on, at most, per thread: bounds the
/// summaries waiting for their turn.
const RUNS_AHEAD_PER_THREAD: usize = 64;

/// How often the calling thread looks at `cancel` while no run comes in.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// Summaries a thread leaves in the inbox before it wakes the calling thread (sooner when it
/// finishes or must wait for its turn): a wake-up for each run cost a tenth of a long
/// play-test's time.
const WAKE_AFTER_RUNS: usize = 32;

/// One play-test's runs, as the threads making them share it.
struct Job {
    scene: Scene,
    runs: usize,
    moves: u32,
    seed: u64,
    /// The next run to begin.
    next: AtomicUsize,
    /// Runs handed on so far: a thread more than `ahead` runs past it waits.
    handed: Mutex<usize>,
    handed_changed: Condvar,
    ahead: usize,
    /// No run begins once set: the play-test was given up, or a run panicked.
    stop: AtomicBool,
    /// What the threads made, not yet taken by the calling thread.
    inbox: Mutex<Vec<Made>>,
    inbox_filled: Condvar,
}

impl Job {
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        // Under the lock, so a thread about to wait sees the flag or is woken.
        let _handed = self.handed.lock();
        self.handed_changed.notify_all();
    }

    fn set_handed(&self, handed: usize) {
        if let Ok(mut h) = self.handed.lock() {
            *h = handed;
        }
        self.handed_changed.notify_all();
    }

    /// Wait while run `i` is too far ahead of the oldest run not handed on (that one is being
    /// made by another thread, so the wait ends); false if the job stopped meanwhile.
    fn wait_turn(&self, i: usize) -> bool {
        let Ok(mut handed) = self.handed.lock() else { return false };
        if i >= *handed + self.ahead {
            // What this thread made may be what the calling thread needs to hand on next.
            self.inbox_filled.notify_all();
        }
        while i >= *handed + self.ahead && !self.stop.load(Ordering::Relaxed) {
            handed = match self.handed_changed.wait(handed) {
                Ok(h) => h,
                Err(_) => return false,
            };
        }
        !self.stop.load(Ordering::Relaxed)
    }
}

impl Job {
    /// Leave `made` in the inbox, waking the calling thread when it is worth it.
    fn tell(&self, made: Made) {
        let Ok(mut inbox) = self.inbox.lock() else { return };
        let wake = !matches!(made, Made::Run(..)) || inbox.len() + 1 >= WAKE_AFTER_RUNS;
        inbox.push(made);
        drop(inbox);
        if wake {
            self.inbox_filled.notify_all();
        }
    }

    /// Everything in the inbox, waiting for something at most `CANCEL_POLL`.
    fn take_made(&self) -> Vec<Made> {
        let Ok(mut inbox) = self.inbox.lock() else { return Vec::new() };
        if inbox.is_empty() {
            inbox = match self.inbox_filled.wait_timeout(inbox, CANCEL_POLL) {
                Ok((inbox, _)) => inbox,
                Err(_) => return Vec::new(),
            };
        }
        std::mem::take(&mut *inbox)
    }
}

/// What a thread tells the calling thread.
enum Made {
    Run(usize, Box<RunSummary>),
    /// A run panicked, with the panic's payload: the play-test stops and the caller panics.
    Panicked(Box<dyn Any + Send>),
    /// The thread begins no more runs of the job.
    Finished,
}

/// Make the job's runs until none is left, in `sim` (restarted for each run; a new one when
/// there is none), leaving each summary in the job's inbox.
fn work(job: &Job, sim: &mut Option<Simulation>) {
    loop {
        if job.stop.load(Ordering::Relaxed) {
            break;
        }
        let i = job.next.fetch_add(1, Ordering::Relaxed);
        if i >= job.runs || !job.wait_turn(i) {
            break;
        }
        let seed = job.seed.wrapping_add(i as u64);
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let sim = match sim.as_mut() {
                Some(s) => {
                    s.restart(&job.scene, seed);
                    s
                }
                None => sim.insert(Simulation::unwatched(&job.scene, seed)),
            };
            play_and_summarize(sim, &job.scene, seed, job.moves)
        }));
        match run {
            Ok(summary) => job.tell(Made::Run(i, Box::new(summary))),
            Err(payload) => {
                // Half a run's world is not a simulation to restart.
                *sim = None;
                job.stop();
                job.tell(Made::Panicked(payload));
                break;
            }
        }
    }
    job.tell(Made::Finished);
}

/// A kept thread: it makes the runs of each job sent to it, in the simulation it keeps.
struct Worker {
    jobs: Sender<Arc<Job>>,
}

impl Worker {
    fn spawn() -> Option<Self> {
        let (jobs, receiver) = mpsc::channel::<Arc<Job>>();
        let body = move || {
            let mut sim = None;
            for job in receiver {
                work(&job, &mut sim);
            }
        };
        std::thread::Builder::new().name("tabula-playtest".into()).spawn(body).ok()?;
        Some(Self { jobs })
    }
}

static KEPT_THREADS: Mutex<Vec<Worker>> = Mutex::new(Vec::new());

/// Make runs `0..runs` of `scene` (`moves` moves each, run `i` from seed `seed + i`) on
/// `threads` threads, all of them unless `cancel` is set; hand each summary to `hand_on` in
/// seed order and call `progress(done)` as each is made, both on the calling thread. How many
/// were handed on. A panic in a run is the caller's, once the other threads have stopped.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_runs(
    scene: &Scene,
    runs: u32,
    moves: u32,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(u32) + Sync),
    cancel: &AtomicBool,
    hand_on: &mut (dyn FnMut(RunSummary) + Send),
) -> u32 {
    run_runs_on(true, scene, (runs, moves, seed), threads, progress, cancel, hand_on).0
}

/// [`run_runs`], on the kept threads only if `keep` (and they are free): how many were handed
/// on, and whether the kept threads made them.
fn run_runs_on(
    keep: bool,
    scene: &Scene,
    (runs, moves, seed): (u32, u32, u64),
    threads: usize,
    progress: &(dyn Fn(u32) + Sync),
    cancel: &AtomicBool,
    hand_on: &mut (dyn FnMut(RunSummary) + Send),
) -> (u32, bool) {
    let threads = threads.max(1);
    let job = Arc::new(Job {
        scene: scene.clone(),
        runs: runs as usize,
        moves,
        seed,
        next: AtomicUsize::new(0),
        handed: Mutex::new(0),
        handed_changed: Condvar::new(),
        ahead: RUNS_AHEAD_PER_THREAD * threads,
        stop: AtomicBool::new(false),
        inbox: Mutex::new(Vec::new()),
        inbox_filled: Condvar::new(),
    });
    if cancel.load(Ordering::Relaxed) {
        job.stop.store(true, Ordering::Relaxed);
    }
    let kept = if keep { on_kept_threads(&job, threads) } else { None };
    let on_kept = kept.is_some();
    let gathered = match kept {
        Some(started) => gather(&job, started, progress, cancel, hand_on),
        None => std::thread::scope(|scope| {
            for _ in 0..threads {
                let job = &job;
                scope.spawn(move || work(job, &mut None));
            }
            gather(&job, threads, progress, cancel, hand_on)
        }),
    };
    (gathered.unwrap_or_else(|payload| std::panic::resume_unwind(payload)), on_kept)
}

/// Send the job to `threads` kept threads, starting those missing: how many took it. None
/// when another play-test has the kept threads, or more are asked for than are kept.
fn on_kept_threads(job: &Arc<Job>, threads: usize) -> Option<usize> {
    if threads > MAX_KEPT_THREADS {
        return None;
    }
    // Held until every kept thread has the job: each takes its jobs in the order sent, so two
    // play-tests never wait on each other's runs.
    let mut kept = KEPT_THREADS.try_lock().ok()?;
    while kept.len() < threads {
        kept.push(Worker::spawn()?);
    }
    let mut started = 0;
    // A thread that is gone (it cannot be, short of a panic outside a run) is forgotten.
    kept.retain(|w| {
        if started == threads {
            return true;
        }
        let sent = w.jobs.send(Arc::clone(job)).is_ok();
        started += usize::from(sent);
        sent
    });
    (started > 0).then_some(started)
}

/// Take the summaries as the `threads` threads make them, handing them on in seed order, until
/// every thread has finished; how many were handed on, or the payload of a run's panic.
fn gather(
    job: &Job,
    threads: usize,
    progress: &(dyn Fn(u32) + Sync),
    cancel: &AtomicBool,
    hand_on: &mut (dyn FnMut(RunSummary) + Send),
) -> Result<u32, Box<dyn Any + Send>> {
    let mut waiting: BTreeMap<usize, RunSummary> = BTreeMap::new();
    let (mut handed, mut done, mut finished) = (0usize, 0u32, 0usize);
    let mut panicked = None;
    while finished < threads {
        if cancel.load(Ordering::Relaxed) {
            job.stop();
        }
        let made = job.take_made();
        let handed_before = handed;
        for message in made {
            match message {
                Made::Run(i, run) => {
                    waiting.insert(i, *run);
                    while let Some(run) = waiting.remove(&handed) {
                        hand_on(run);
                        handed += 1;
                    }
                    done += 1;
                    progress(done);
                }
                Made::Panicked(payload) => panicked = panicked.or(Some(payload)),
                Made::Finished => finished += 1,
            }
        }
        if handed != handed_before {
            job.set_handed(handed);
        }
    }
    panicked.map_or(Ok(handed as u32), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::scene_from_str;

    fn summaries(keep: bool, scene: &Scene, runs: u32, threads: usize) -> (Vec<RunSummary>, bool) {
        let mut made = Vec::new();
        let (handed, on_kept) =
            run_runs_on(keep, scene, (runs, 6, 11), threads, &|_| {}, &AtomicBool::new(false), &mut |r| made.push(r));
        assert_eq!(handed as usize, made.len());
        (made, on_kept)
    }

    /// Kept threads make the runs new threads make, run for run and in seed order, whatever
    /// scene their simulations ran before and however many threads take part.
    #[test]
    fn kept_threads_make_the_runs_new_threads_make() {
        let scenes = [
            scene_from_str(include_str!("../../scenes/tomb.ron")),
            scene_from_str(include_str!("../../scenes/farmstead.ron")),
            scene_from_str(include_str!("../../scenes/ambush-trail.ron")),
        ];
        let mut kept_made = 0;
        for (k, threads) in [(0, 2), (1, 3), (2, 1), (0, 3), (1, 2)] {
            let (fresh, on_kept) = summaries(false, &scenes[k], 7, threads);
            assert!(!on_kept);
            assert_eq!(fresh.iter().map(|r| r.seed).collect::<Vec<_>>(), (11..18).collect::<Vec<_>>());
            // Another test may hold the kept threads for a moment: then new ones make the runs.
            for _ in 0..50 {
                let (kept, on_kept) = summaries(true, &scenes[k], 7, threads);
                assert_eq!(kept, fresh, "scene {k} on {threads} threads");
                if on_kept {
                    kept_made += 1;
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        assert_eq!(kept_made, 5, "the kept threads made every play-test");
        // More threads than are kept: new ones.
        let (_, on_kept) = summaries(true, &scenes[0], 2, MAX_KEPT_THREADS + 1);
        assert!(!on_kept);
    }

    /// A play-test cancelled before it starts begins no run, on kept threads or new ones.
    #[test]
    fn a_play_test_cancelled_before_it_starts_begins_no_run() {
        let scene = scene_from_str(include_str!("../../scenes/tomb.ron"));
        for keep in [true, false] {
            let begun = std::sync::atomic::AtomicU32::new(0);
            let progress = |_| {
                begun.fetch_add(1, Ordering::Relaxed);
            };
            let (handed, _) = run_runs_on(keep, &scene, (20, 4, 1), 2, &progress, &AtomicBool::new(true), &mut |_| {});
            assert_eq!((handed, begun.load(Ordering::Relaxed)), (0, 0));
        }
    }
}
