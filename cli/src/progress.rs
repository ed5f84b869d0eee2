//! What `m2r` shows while it works, rendered from the session's progress events
//! ([`m2resolver::ProgressEvent`]):
//!
//! - on a terminal (stderr), one bar: the phase (`reading settings`, `collecting`,
//!   `downloading`, `installing`, `deploying`), files done of the total when it is known
//!   (`12/246`), the bytes received (or sent) and the file in flight; it is cleared when the
//!   command ends;
//! - without a terminal (a CI log), one line when a phase starts, a summary line every
//!   [`SUMMARY_EVERY`] while it runs (so a log shows life within 10 s), and one when it ends;
//! - nothing with `-q`.
//!
//! Everything goes to stderr: stdout is the command's answer.

use indicatif::{HumanBytes, ProgressBar, ProgressStyle};
use m2resolver::{Phase, ProgressEvent, ProgressListener};
use std::io::IsTerminal;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often a summary line is written without a terminal (`M2R_PROGRESS_INTERVAL_MS`
/// overrides it).
pub const SUMMARY_EVERY: Duration = Duration::from_secs(5);

fn summary_interval() -> Duration {
    std::env::var("M2R_PROGRESS_INTERVAL_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map(Duration::from_millis)
        .unwrap_or(SUMMARY_EVERY)
}

#[derive(Debug)]
struct State {
    phase: Option<Phase>,
    total: Option<u64>,
    downloaded: u64,
    cached: u64,
    failed: u64,
    bytes: u64,
    current: Option<String>,
    phase_started: Instant,
}

impl State {
    fn files(&self) -> u64 {
        self.downloaded + self.cached + self.failed
    }

    /// `12/246 files (3 cached), 1.2 MiB` or `12 files, ...` (an upload, an install: `cached`
    /// is a file left alone).
    fn counts(&self) -> String {
        let files = match self.total {
            Some(t) => format!("{}/{t} files", self.files()),
            None => format!("{} files", self.files()),
        };
        let mut s = files;
        if self.cached > 0 {
            s.push_str(&format!(" ({} cached)", self.cached));
        }
        if self.failed > 0 {
            s.push_str(&format!(" ({} failed)", self.failed));
        }
        s.push_str(&format!(", {}", HumanBytes(self.bytes)));
        s
    }
}

/// The progress display of one command (see the module documentation).
pub struct Progress {
    state: Mutex<State>,
    bar: Option<ProgressBar>,
    log: bool,
    /// Dropping it wakes the ticker at once (a sleeping ticker cost up to 100 ms at exit).
    stop: Mutex<Option<mpsc::Sender<()>>>,
    ticker: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl Progress {
    /// A display for stderr: a bar on a terminal, log lines otherwise, nothing when `quiet`.
    pub fn new(quiet: bool) -> Arc<Progress> {
        let terminal = std::io::stderr().is_terminal();
        let bar = (!quiet && terminal).then(|| {
            let pb = ProgressBar::new_spinner();
            pb.set_style(
                ProgressStyle::with_template("{spinner} {prefix:.bold} {msg} {elapsed}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            pb.enable_steady_tick(Duration::from_millis(120));
            pb
        });
        let progress = Arc::new(Progress {
            state: Mutex::new(State {
                phase: None,
                total: None,
                downloaded: 0,
                cached: 0,
                failed: 0,
                bytes: 0,
                current: None,
                phase_started: Instant::now(),
            }),
            bar,
            log: !quiet && !terminal,
            stop: Mutex::new(None),
            ticker: Mutex::new(None),
        });
        if progress.log {
            let weak = Arc::downgrade(&progress);
            let (stop, wake) = mpsc::channel::<()>();
            if let Ok(mut s) = progress.stop.lock() {
                *s = Some(stop);
            }
            let every = summary_interval();
            let tick = every.clamp(Duration::from_millis(5), Duration::from_millis(100));
            let handle = std::thread::spawn(move || {
                let mut last = Instant::now();
                while let Err(RecvTimeoutError::Timeout) = wake.recv_timeout(tick) {
                    if last.elapsed() < every {
                        continue;
                    }
                    last = Instant::now();
                    match weak.upgrade() {
                        Some(p) => p.summary(),
                        None => break,
                    }
                }
            });
            if let Ok(mut t) = progress.ticker.lock() {
                *t = Some(handle);
            }
        }
        progress
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        match self.state.lock() {
            Ok(s) => s,
            Err(e) => e.into_inner(),
        }
    }

    /// The periodic line of a log: the phase running and its counts.
    fn summary(&self) {
        let s = self.state();
        if let Some(phase) = s.phase {
            eprintln!(
                "m2r: {phase}: {}, {:.1?}",
                s.counts(),
                s.phase_started.elapsed()
            );
        }
    }

    fn redraw(&self, s: &State) {
        let Some(bar) = &self.bar else { return };
        if let Some(phase) = s.phase {
            bar.set_prefix(phase.as_str());
        }
        let mut msg = s.counts();
        if let Some(c) = &s.current {
            msg.push_str(&format!(" {c}"));
        }
        bar.set_message(msg);
    }

    fn stop_ticker(&self) {
        let stop = match self.stop.lock() {
            Ok(mut s) => s.take(),
            Err(e) => e.into_inner().take(),
        };
        drop(stop);
    }

    /// Ends the display: the bar is cleared, the ticker stopped.
    pub fn finish(&self) {
        self.stop_ticker();
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        let ticker = self.ticker.lock().ok().and_then(|mut t| t.take());
        if let Some(t) = ticker {
            let _ = t.join();
        }
    }
}

impl ProgressListener for Progress {
    fn on_event(&self, event: &ProgressEvent<'_>) {
        let mut s = self.state();
        match event {
            ProgressEvent::PhaseStarted { phase, total } => {
                s.phase = Some(*phase);
                s.total = *total;
                s.downloaded = 0;
                s.cached = 0;
                s.failed = 0;
                s.bytes = 0;
                s.current = None;
                s.phase_started = Instant::now();
                if self.log {
                    match total {
                        Some(t) => eprintln!("m2r: {phase} ({t} files)"),
                        None => eprintln!("m2r: {phase}"),
                    }
                }
            }
            ProgressEvent::PhaseFinished { phase } => {
                if self.log && *phase != Phase::ReadingSettings {
                    eprintln!(
                        "m2r: {phase}: done, {} in {:.1?}",
                        s.counts(),
                        s.phase_started.elapsed()
                    );
                }
                s.phase = None;
                s.current = None;
            }
            ProgressEvent::TransferStarted { artifact, .. } => {
                s.current = Some(artifact.to_string());
            }
            ProgressEvent::TransferProgress { bytes, .. } => s.bytes += bytes,
            ProgressEvent::Downloaded { .. } => s.downloaded += 1,
            ProgressEvent::Cached { .. } => s.cached += 1,
            ProgressEvent::Failed { .. } => s.failed += 1,
            ProgressEvent::UploadStarted { path, .. } => {
                s.current = Some(path.rsplit('/').next().unwrap_or(path).to_string());
            }
            ProgressEvent::UploadProgress { bytes, .. } => s.bytes += bytes,
            ProgressEvent::Uploaded { .. } => s.downloaded += 1,
            ProgressEvent::UploadFailed { .. } => s.failed += 1,
            ProgressEvent::Installed { copied: true, .. } => s.downloaded += 1,
            ProgressEvent::Installed { copied: false, .. } => s.cached += 1,
            _ => {}
        }
        self.redraw(&s);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop_ticker();
    }
}
