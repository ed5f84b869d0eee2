//! A progress listener that records what a display would show: each phase's total and each
//! file reported `Downloaded` or `Cached`, with the phase it came in.

use m2resolver::{Phase, ProgressEvent, ProgressListener};
use std::sync::Mutex;

/// A file event: the phase it came in (`None`: outside any), the file's name, and
/// `"downloaded"` or `"cached"`.
pub type FileEvent = (Option<Phase>, String, &'static str);

#[derive(Default)]
pub struct Recorder {
    phase: Mutex<Option<Phase>>,
    totals: Mutex<Vec<(Phase, Option<u64>)>>,
    files: Mutex<Vec<FileEvent>>,
}

impl Recorder {
    /// The totals announced for `phase`, one per time it started.
    pub fn totals(&self, phase: Phase) -> Vec<Option<u64>> {
        let totals = self.totals.lock().unwrap();
        totals
            .iter()
            .filter(|(p, _)| *p == phase)
            .map(|(_, t)| *t)
            .collect()
    }

    /// `(file name, kind)` of the file events, all of them (`None`) or those of one phase.
    pub fn files(&self, phase: Option<Phase>) -> Vec<(String, &'static str)> {
        let files = self.files.lock().unwrap();
        files
            .iter()
            .filter(|(p, _, _)| phase.is_none() || *p == phase)
            .map(|(_, f, k)| (f.clone(), *k))
            .collect()
    }
}

impl ProgressListener for Recorder {
    fn on_event(&self, event: &ProgressEvent<'_>) {
        let (file, kind) = match event {
            ProgressEvent::PhaseStarted { phase, total } => {
                self.totals.lock().unwrap().push((*phase, *total));
                *self.phase.lock().unwrap() = Some(*phase);
                return;
            }
            ProgressEvent::PhaseFinished { .. } => {
                *self.phase.lock().unwrap() = None;
                return;
            }
            ProgressEvent::Downloaded { file } => (file, "downloaded"),
            ProgressEvent::Cached { file } => (file, "cached"),
            _ => return,
        };
        let name = file
            .path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let phase = *self.phase.lock().unwrap();
        self.files.lock().unwrap().push((phase, name, kind));
    }
}
