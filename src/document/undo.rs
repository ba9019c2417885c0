//! Undo and redo of the GM's edits, apart from rewinding moves (issue #25): placing, moving,
//! deleting and editing entities ([`super::apply_edits`]), the fog of war by hand
//! ([`super::edit_fog`]), the orders placed between moves ([`super::order_cast`],
//! [`super::order_combat`]) and a new seed ([`super::reseed`]).
//!
//! An undo step holds what the edit changed, not the whole scene ([`SceneDelta`]): the scene
//! before and after are compared list by list (figures, traps, walls, ...), keeping only the run
//! of each list that differs, and section by section (trails, magic, the fog, ...), keeping only
//! those that differ; the scene's other fields (title, table, lighting, ...) are kept whole. So
//! any change to the scene is undone, whatever the edit was: nothing here lists the kinds of
//! edit. Undoing rebuilds the world from the scene put back, as an edit does, and cuts the dice
//! log back by the lines the edit added (an order's); the step taken back becomes a redo step,
//! which a new edit clears.
//!
//! Moves have their own rewind ([`super::rewind`]) and undo never crosses one: stepping a move,
//! resting or dicing a decision closes the edits before it (a rewind takes them back with the
//! move) and clears the redo steps. Rewinding to before a move gives back the undo steps that
//! stood then, so Backspace and then Ctrl+Z take back the move and then the last edit before it.
//! Opening, reloading or starting a new scene forgets every step.
//!
//! A gesture (the view's mouse drag, a brush stroke) is one step: the changes made between
//! [`EditHistory::begin_group`] and [`end_group`] are undone together.
//!
//! Undo and redo put the document's unsaved state back too: a scene saved, edited and undone
//! is saved again.

use super::Document;
use super::history::estimate_bytes;
use crate::scene::Scene;
use crate::sim::world::snapshot_scene;
use crate::sim::{EventLog, LogEvent};
use bevy::prelude::*;
use std::collections::VecDeque;

/// Most undo steps kept; the oldest go first.
///
/// A step holds only what changed: moving one figure of a 2,000-figure scene keeps that figure
/// and the scene's small fields, a few kilobytes, where a whole snapshot of that scene holds all
/// 2,000 figures, over a megabyte (the estimate [`super::History`] uses), and 200 of those would
/// be hundreds of megabytes.
pub const MAX_UNDO_STEPS: usize = 200;

/// Most bytes the undo and redo steps may hold together (an estimate, on the high side); the
/// oldest undo steps go first when it is passed, the newest always stays. Ordinary edits never
/// come near it in [`MAX_UNDO_STEPS`] steps; only edits that each change megabytes (a fog reset
/// on the largest fog grid, an inspector edit of a huge entity) can drop steps before that.
pub const MAX_UNDO_BYTES: usize = 256 * 1024 * 1024;

/// A rough allowance for the fields of a dice-log event a step holds.
const LOG_EVENT_BYTES: usize = 256;

/// Where the undo steps stood when the world was kept before a move (in the history's
/// [`super::Snapshot`]), so that a rewind to it gives back the undo steps that led there.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EditMark {
    /// The edits' epoch then: steps of another epoch were made across a move.
    epoch: u64,
    /// The last undo step then (none: nothing to undo).
    top: Option<u64>,
    /// The id the next step would have had: later steps are of a world the rewind leaves.
    next_id: u64,
}

/// The dice-log lines a step takes away or puts back.
#[derive(Debug, Default)]
struct LogPatch {
    /// How many events to keep; the rest are taken away (and kept for the opposite step).
    keep: usize,
    /// Events to add after those.
    append: Vec<LogEvent>,
}

/// One undo or redo step.
#[derive(Debug)]
struct Entry {
    /// The step's number, in the order the steps were made (a redo keeps its undo's).
    id: u64,
    /// The epoch it was made in ([`EditMark`]).
    epoch: u64,
    /// What turns the world the step applies to into the world it gives back.
    delta: SceneDelta,
    log: LogPatch,
    /// The world it gives back is the file's (the document is saved then).
    restores_clean: bool,
    /// Its estimated size.
    bytes: usize,
}

/// A change begun and not yet made a step: the world before it.
#[derive(Debug)]
struct Pending {
    before: Scene,
    log_len: usize,
    was_clean: bool,
}

/// The undo and redo steps of the document's edits.
#[derive(Resource, Debug)]
pub struct EditHistory {
    /// Undo steps, oldest first; only those of the current epoch at the back can be undone.
    undo: VecDeque<Entry>,
    /// Redo steps, the next to redo last.
    redo: Vec<Entry>,
    /// The change being made (a gesture's, until it ends).
    pending: Option<Pending>,
    /// A gesture is under way: its changes are one step.
    grouping: bool,
    epoch: u64,
    next_epoch: u64,
    next_id: u64,
    /// Estimated bytes of the undo and redo steps.
    bytes: usize,
    max_steps: usize,
    max_bytes: usize,
}

impl Default for EditHistory {
    fn default() -> Self {
        Self::with_limits(MAX_UNDO_STEPS, MAX_UNDO_BYTES)
    }
}

impl EditHistory {
    /// No steps, keeping at most `max_steps` undo steps (at least one) and `max_bytes` of them.
    pub fn with_limits(max_steps: usize, max_bytes: usize) -> Self {
        Self {
            undo: VecDeque::new(),
            redo: Vec::new(),
            pending: None,
            grouping: false,
            epoch: 0,
            next_epoch: 1,
            next_id: 0,
            bytes: 0,
            max_steps: max_steps.max(1),
            max_bytes,
        }
    }

    /// How many edits can be undone now (a gesture under way counts as one).
    pub fn undo_steps(&self) -> usize {
        let kept = self.undo.iter().rev().take_while(|e| e.epoch == self.epoch).count();
        kept + usize::from(self.pending.is_some())
    }

    /// How many undone edits can be made again.
    pub fn redo_steps(&self) -> usize {
        self.redo.len()
    }

    /// Estimated bytes the steps hold.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Begin a gesture: the changes made until [`end_group`] are one step.
    pub fn begin_group(&mut self) {
        self.grouping = true;
    }

    /// Whether a gesture is under way.
    pub fn grouping(&self) -> bool {
        self.grouping
    }

    fn fresh_epoch(&mut self) {
        self.epoch = self.next_epoch;
        self.next_epoch += 1;
    }

    fn clear_redo(&mut self) {
        let freed: usize = self.redo.drain(..).map(|e| e.bytes).sum();
        self.bytes = self.bytes.saturating_sub(freed);
    }

    /// A new undo step: the redo steps go, and the oldest undo steps past the limits.
    fn record(&mut self, delta: SceneDelta, log: LogPatch, restores_clean: bool) {
        let bytes = entry_bytes(&delta, &log);
        let id = self.next_id;
        self.next_id += 1;
        self.clear_redo();
        self.undo.push_back(Entry { id, epoch: self.epoch, delta, log, restores_clean, bytes });
        self.bytes += bytes;
        while self.undo.len() > self.max_steps || (self.bytes > self.max_bytes && self.undo.len() > 1) {
            if let Some(old) = self.undo.pop_front() {
                self.bytes = self.bytes.saturating_sub(old.bytes);
            }
        }
    }

    fn edit_mark(&self) -> EditMark {
        let top = self.undo.back().filter(|e| e.epoch == self.epoch).map(|e| e.id);
        EditMark { epoch: self.epoch, top, next_id: self.next_id }
    }

    /// The world went back to where it stood at `mark`: the steps made since go, and the steps
    /// that led there can be undone again if they are all still kept.
    fn rewound(&mut self, mark: EditMark) {
        self.pending = None;
        self.clear_redo();
        while self.undo.back().is_some_and(|e| e.id >= mark.next_id) {
            if let Some(gone) = self.undo.pop_back() {
                self.bytes = self.bytes.saturating_sub(gone.bytes);
            }
        }
        let intact =
            mark.top.is_some() && self.undo.back().is_some_and(|e| Some(e.id) == mark.top && e.epoch == mark.epoch);
        if intact {
            self.epoch = mark.epoch;
        } else {
            self.fresh_epoch();
        }
    }

    fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
        self.pending = None;
        self.bytes = 0;
        self.fresh_epoch();
    }
}

/// Estimated bytes of a step.
fn entry_bytes(delta: &SceneDelta, log: &LogPatch) -> usize {
    size_of::<Entry>() + delta.bytes() + log.append.len() * (size_of::<LogEvent>() + LOG_EVENT_BYTES)
}

/// The run of a list that differs between two states of it: the elements before `at` and
/// after `at + replaces` are shared; `replaces` elements of the other state stand between.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Span {
    at: usize,
    replaces: usize,
}

impl Span {
    /// Cut `before` down to the run that differs from `after`, and say where it goes.
    fn cut<T: PartialEq>(before: &mut Vec<T>, after: &[T]) -> Span {
        let prefix = before.iter().zip(after).take_while(|(b, a)| b == a).count();
        let room = before.len().min(after.len()) - prefix;
        let suffix = before.iter().rev().zip(after.iter().rev()).take(room).take_while(|(b, a)| b == a).count();
        before.truncate(before.len() - suffix);
        *before = before.split_off(prefix);
        Span { at: prefix, replaces: after.len() - prefix - suffix }
    }

    /// Whether a list of `len` elements has the run to replace.
    fn fits(self, len: usize) -> bool {
        self.at.checked_add(self.replaces).is_some_and(|end| end <= len)
    }

    /// Put `middle` in place of the run of `list`; `middle` is left holding the run taken out,
    /// and the span that puts it back comes back. `list` must fit ([`Span::fits`]).
    fn apply<T>(self, list: &mut Vec<T>, middle: &mut Vec<T>) -> Span {
        let inserted = middle.len();
        let removed: Vec<T> = list.splice(self.at..self.at + self.replaces, std::mem::take(middle)).collect();
        *middle = removed;
        Span { at: self.at, replaces: inserted }
    }
}

/// What turns one state of a scene into another: the other state, less what the two share.
/// Each of the scene's lists keeps only its run that differs, each section only if it differs;
/// every other field of the scene is kept whole, so a field added to the scene later is undone
/// too, only less thriftily.
#[derive(Debug)]
pub struct SceneDelta {
    /// The state to give back, less what it shares with the state it is applied to.
    scene: Scene,
    spans: Spans,
    restores: Restores,
}

/// The scene's lists and sections that a delta holds only the changed part of.
macro_rules! scene_parts {
    (lists: [$($list:ident),+ $(,)?], sections: [$($section:ident),+ $(,)?] $(,)?) => {
        /// For each list of the scene, the run that differs.
        #[derive(Debug, Clone, Copy, Default)]
        struct Spans {
            $($list: Span,)+
        }

        /// For each section of the scene, whether it differs (the delta holds it then).
        #[derive(Debug, Clone, Copy, Default)]
        struct Restores {
            $($section: bool,)+
        }

        impl SceneDelta {
            /// What turns `after` back into `before`.
            pub fn between(mut before: Scene, after: &Scene) -> Self {
                let spans = Spans { $($list: Span::cut(&mut before.$list, &after.$list),)+ };
                let restores = Restores { $($section: before.$section != after.$section,)+ };
                $(
                    if !restores.$section {
                        before.$section = Default::default();
                    }
                )+
                Self { scene: before, spans, restores }
            }

            /// Whether the delta can be applied to `now`: every list has the run it replaces.
            pub fn fits(&self, now: &Scene) -> bool {
                let mut fits = true;
                $(fits &= self.spans.$list.fits(now.$list.len());)+
                fits
            }

            /// Turn `now` into the state the delta holds; with the delta that turns that back
            /// into `now`. `now` must fit ([`SceneDelta::fits`]).
            pub fn apply(self, mut now: Scene) -> (Scene, SceneDelta) {
                let Self { scene: mut back, spans, restores } = self;
                // Each list of `now` becomes the list given back; `back` holds the runs taken out.
                let inverse = Spans { $($list: spans.$list.apply(&mut now.$list, &mut back.$list),)+ };
                $(std::mem::swap(&mut back.$list, &mut now.$list);)+
                // A section that does not differ is `now`'s in both states.
                $(
                    if !restores.$section {
                        std::mem::swap(&mut back.$section, &mut now.$section);
                    }
                )+
                (back, SceneDelta { scene: now, spans: inverse, restores })
            }
        }
    };
}

scene_parts! {
    lists: [
        terrain, walls, doors, lights, figures, traps, fires, ignitions, herds, sleepers, cattle_grids,
        location_tables, treatments, temptations, decisions, outvotes, weakness_checks, objectives,
    ],
    sections: [seed, rules, trails, magic, obstacles, osr, fog, fire_state, background],
}

impl SceneDelta {
    /// Estimated bytes the delta holds (on the high side).
    pub fn bytes(&self) -> usize {
        let s = &self.scene;
        let mut bytes = size_of::<Self>() + estimate_bytes(s);
        // What the history's estimate leaves out.
        bytes += size_of_val(s.location_tables.as_slice())
            + size_of_val(s.treatments.as_slice())
            + size_of_val(s.temptations.as_slice())
            + size_of_val(s.decisions.as_slice())
            + size_of_val(s.outvotes.as_slice())
            + size_of_val(s.weakness_checks.as_slice())
            + size_of_val(s.objectives.as_slice());
        let r = &self.restores;
        if r.rules {
            bytes += ron_len(&s.rules);
        }
        if r.trails {
            bytes += ron_len(&s.trails);
        }
        if r.magic {
            bytes += ron_len(&s.magic);
        }
        if r.obstacles {
            bytes += ron_len(&s.obstacles);
        }
        if r.osr {
            bytes += ron_len(&s.osr);
        }
        bytes
    }
}

/// The length of a value as RON text: a stand-in for its size in memory.
fn ron_len<T: serde::Serialize>(value: &T) -> usize {
    ron::to_string(value).map_or(0, |text| text.len())
}

/// Note the world as it is before a change that Undo should take back: `scene` is its
/// snapshot when the caller has one. A gesture's later changes join its first. Whether this
/// began the change (pass it to [`note_after`]).
pub(crate) fn note_before(world: &mut World, scene: Option<&Scene>) -> bool {
    let Some(history) = world.get_resource::<EditHistory>() else { return false };
    if history.pending.is_some() {
        return false;
    }
    let Some(before) = scene.cloned().or_else(|| snapshot_scene(world)) else { return false };
    let log_len = world.get_resource::<EventLog>().map_or(0, |l| l.events.len());
    let was_clean = world.get_resource::<Document>().is_some_and(|d| !d.dirty);
    world.resource_mut::<EditHistory>().pending = Some(Pending { before, log_len, was_clean });
    true
}

/// The change noted by [`note_before`] is made (`changed`: it changed something): it becomes
/// an undo step, or, in a gesture, when the gesture ends.
pub(crate) fn note_after(world: &mut World, began: bool, changed: bool) {
    let Some(mut history) = world.get_resource_mut::<EditHistory>() else { return };
    if began && !changed {
        history.pending = None;
        return;
    }
    if history.grouping {
        return;
    }
    settle(world);
}

/// Make the change under way (a gesture's) an undo step now, if it changed anything.
pub(crate) fn settle(world: &mut World) {
    let Some(pending) = world.get_resource_mut::<EditHistory>().and_then(|mut h| h.pending.take()) else { return };
    let Some(after) = snapshot_scene(world) else { return };
    let log_len = world.get_resource::<EventLog>().map_or(0, |l| l.events.len());
    if pending.before == after && log_len == pending.log_len {
        return;
    }
    let delta = SceneDelta::between(pending.before, &after);
    let log = LogPatch { keep: pending.log_len.min(log_len), append: Vec::new() };
    world.resource_mut::<EditHistory>().record(delta, log, pending.was_clean);
}

/// End a gesture begun with [`EditHistory::begin_group`]: its changes become one undo step.
pub fn end_group(world: &mut World) {
    let Some(mut history) = world.get_resource_mut::<EditHistory>() else { return };
    history.grouping = false;
    settle(world);
}

/// Before the world is kept in the history (before a move, a rest, a decision or an order):
/// the change under way becomes a step, the redo steps go, and where the undo steps stand is
/// noted for a rewind to it.
pub(crate) fn mark(world: &mut World) -> EditMark {
    settle(world);
    let Some(mut history) = world.get_resource_mut::<EditHistory>() else { return EditMark::default() };
    history.clear_redo();
    history.edit_mark()
}

/// After a move, a rest or a decision: the edits before it are not undone one by one any more
/// (a rewind takes them back with it).
pub(crate) fn seal(world: &mut World) {
    let Some(mut history) = world.get_resource_mut::<EditHistory>() else { return };
    history.pending = None;
    history.clear_redo();
    history.fresh_epoch();
}

/// After a rewind to a snapshot kept at `mark`.
pub(crate) fn rewound(world: &mut World, mark: EditMark) {
    if let Some(mut history) = world.get_resource_mut::<EditHistory>() {
        history.rewound(mark);
    }
}

/// The document was saved: no step gives back the file's world any more but the current one.
pub(crate) fn saved(world: &mut World) {
    if let Some(mut history) = world.get_resource_mut::<EditHistory>() {
        for entry in history.undo.iter_mut() {
            entry.restores_clean = false;
        }
        for entry in history.redo.iter_mut() {
            entry.restores_clean = false;
        }
    }
}

/// Another scene in the world (open, reload, new): every step goes.
pub(crate) fn forget(world: &mut World) {
    if let Some(mut history) = world.get_resource_mut::<EditHistory>() {
        history.clear();
    }
}

/// Take back the last edit made since the last move (or rewind): the world is rebuilt as it
/// was before it, the dice log cut back by the lines it added, the document saved or not as it
/// was then. Whether an edit was taken back.
pub fn undo(world: &mut World) -> bool {
    apply_step(world, true)
}

/// Make the last edit taken back again. Whether one was.
pub fn redo(world: &mut World) -> bool {
    apply_step(world, false)
}

fn apply_step(world: &mut World, back: bool) -> bool {
    settle(world);
    let entry = {
        let Some(mut history) = world.get_resource_mut::<EditHistory>() else { return false };
        let epoch = history.epoch;
        if !back {
            history.redo.pop()
        } else if history.undo.back().is_some_and(|e| e.epoch == epoch) {
            history.undo.pop_back()
        } else {
            None
        }
    };
    let Some(entry) = entry else { return false };
    let log_len = world.get_resource::<EventLog>().map_or(0, |l| l.events.len());
    let now = snapshot_scene(world).filter(|now| entry.delta.fits(now) && entry.log.keep <= log_len);
    let Some(now) = now else {
        // Not the world the step was made in (nothing should bring this about): the steps are
        // dropped rather than applied to it.
        world.resource_mut::<EditHistory>().clear();
        if let Some(mut document) = world.get_resource_mut::<Document>() {
            document.message = Some("the table changed since that edit: it cannot be undone".into());
        }
        return false;
    };
    let was_clean = world.get_resource::<Document>().is_some_and(|d| !d.dirty);
    let Entry { id, epoch, delta, log: patch, restores_clean, bytes } = entry;
    let (scene, inverse) = delta.apply(now);
    let mut log = world.remove_resource::<EventLog>().unwrap_or_default();
    let removed = log.events.split_off(patch.keep.min(log.events.len()));
    log.events.extend(patch.append);
    let seed = scene.seed;
    super::respawn(world, &scene, seed, Some(log));
    if let Some(mut document) = world.get_resource_mut::<Document>() {
        document.dirty = !restores_clean;
    }
    let inverse_log = LogPatch { keep: patch.keep, append: removed };
    let inverse_bytes = entry_bytes(&inverse, &inverse_log);
    let step = Entry { id, epoch, delta: inverse, log: inverse_log, restores_clean: was_clean, bytes: inverse_bytes };
    let mut history = world.resource_mut::<EditHistory>();
    history.bytes = history.bytes.saturating_sub(bytes) + inverse_bytes;
    if back {
        history.redo.push(step);
    } else {
        history.undo.push_back(step);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{Edit, FogEdit, Placeable, apply_edits, edit_fog, walker_app};
    use crate::scene::Point;
    use crate::sim::sight::ExploredFog;
    use crate::sim::testing::scene_from_str;
    use crate::sim::{MoveClock, SimDice};

    fn steps(world: &World) -> (usize, usize) {
        let history = world.resource::<EditHistory>();
        (history.undo_steps(), history.redo_steps())
    }

    fn walker(world: &mut World) -> Point {
        snapshot_scene(world).unwrap().figures[0].position
    }

    fn move_walker(world: &mut World, x: f32) {
        apply_edits(world, &[Edit::Move("Walker".into(), Vec2::new(x, 5.0))]).unwrap();
    }

    fn dirty(world: &World) -> bool {
        world.resource::<Document>().dirty
    }

    #[test]
    fn a_span_holds_the_run_that_differs_and_puts_it_back() {
        let cases: [(&[u8], &[u8]); 6] = [
            (&[1, 2, 3], &[1, 2, 3, 4]),
            (&[1, 2, 3], &[1, 3]),
            (&[1, 2, 3], &[1, 9, 3]),
            (&[], &[5]),
            (&[1, 1], &[1]),
            (&[1, 2], &[3, 4, 5]),
        ];
        for (before, after) in cases {
            let mut middle = before.to_vec();
            let span = Span::cut(&mut middle, after);
            let mut list = after.to_vec();
            assert!(span.fits(list.len()));
            let back = span.apply(&mut list, &mut middle);
            assert_eq!(list, before, "{before:?} from {after:?}");
            let again = back.apply(&mut list, &mut middle);
            assert_eq!(list, after, "{after:?} from {before:?}");
            assert_eq!(again, span);
        }
        // Only the run that differs is kept.
        let mut middle = vec![1, 2, 3, 4];
        let span = Span::cut(&mut middle, &[1, 9, 3, 4]);
        assert_eq!(middle, vec![2]);
        assert_eq!(span, Span { at: 1, replaces: 1 });
        assert!(!span.fits(1), "a list too short for the run");
    }

    #[test]
    fn a_delta_turns_the_scene_back_and_its_inverse_forth() {
        let before = scene_from_str(
            "(version: 1, title: \"Before\", table: (width: 40, height: 10), figures: [(name: \"A\", position: \
             (1, 5)), (name: \"B\", position: (2, 5)), (name: \"C\", position: (3, 5))])",
        );
        let mut after = before.clone();
        after.title = "After".into();
        after.figures.remove(0);
        after.figures[1].position = (9.0, 9.0);
        after.rules.rounds_per_move = 3;
        after.fog = Some(crate::scene::fog::FogState { columns: 1, rows: 1, explored: String::new(), on: true });
        let delta = SceneDelta::between(before.clone(), &after);
        assert!(delta.fits(&after));
        let (back, inverse) = delta.apply(after.clone());
        assert_eq!(back, before);
        assert!(inverse.fits(&back));
        let (forth, _) = inverse.apply(back);
        assert_eq!(forth, after);
    }

    /// A step of a 2,000-figure scene that moves one figure holds that figure and the scene's
    /// small fields, not the 2,000 figures a whole snapshot holds.
    #[test]
    fn a_step_of_a_big_scene_holds_the_change_not_the_scene() {
        let base = scene_from_str(
            "(version: 1, table: (width: 100, height: 100), figures: [(name: \"F\", position: (1, 1))])",
        );
        let mut before = base.clone();
        before.figures = (0..2000)
            .map(|i| {
                let mut f = base.figures[0].clone();
                f.name = format!("Figure {i}");
                f.position = ((i % 100) as f32, (i / 100) as f32);
                f
            })
            .collect();
        let mut after = before.clone();
        after.figures[1000].position = (50.5, 50.5);
        let whole = estimate_bytes(&before);
        assert!(whole > 2000 * size_of::<crate::scene::Figure>());
        let delta = SceneDelta::between(before.clone(), &after);
        assert!(delta.bytes() * 10 < whole, "a step of {} bytes against a snapshot of {whole}", delta.bytes());
        assert_eq!(delta.scene.figures.len(), 1, "the moved figure only");
        let (back, _) = delta.apply(after);
        assert_eq!(back, before);
    }

    /// A drag sends a move every frame: one step, which undo takes back and redo makes again.
    #[test]
    fn a_drag_is_one_step_that_undo_takes_back_and_redo_makes_again() {
        let mut app = walker_app();
        let world = app.world_mut();
        world.resource_mut::<EditHistory>().begin_group();
        for x in [2.0, 3.0, 4.5] {
            move_walker(world, x);
        }
        assert_eq!(steps(world), (1, 0), "a drag under way counts as one");
        end_group(world);
        assert_eq!(steps(world), (1, 0));
        assert_eq!(walker(world), (4.5, 5.0));
        assert!(undo(world));
        assert_eq!(walker(world), (1.0, 5.0));
        assert_eq!(steps(world), (0, 1));
        assert!(!undo(world), "nothing more to undo");
        assert!(redo(world));
        assert_eq!(walker(world), (4.5, 5.0));
        assert_eq!(steps(world), (1, 0));
        assert!(!redo(world), "nothing more to redo");
        // Outside a gesture each edit is a step of its own; one that changes nothing is none.
        move_walker(world, 6.0);
        move_walker(world, 7.0);
        move_walker(world, 7.0);
        assert_eq!(steps(world), (3, 0));
    }

    #[test]
    fn fog_edits_and_the_fog_switch_are_undone_and_redone() {
        fn explored(world: &World) -> usize {
            world.resource::<ExploredFog>().explored_cells()
        }
        let mut app = walker_app();
        let world = app.world_mut();
        // 0.5" cells: 10 columns by 20 rows.
        let rect = FogEdit::Rect { from: Vec2::new(25.0, 10.0), to: Vec2::new(20.0, 0.0), explored: true };
        assert!(edit_fog(world, &rect));
        assert!(!edit_fog(world, &rect), "revealed already: no step");
        assert!(edit_fog(world, &FogEdit::Switch { on: true }));
        assert_eq!((explored(world), steps(world)), (200, (2, 0)));
        assert!(undo(world));
        assert!(!world.resource::<ExploredFog>().is_on());
        assert_eq!(explored(world), 200);
        assert!(undo(world));
        assert_eq!(explored(world), 0);
        assert_eq!(snapshot_scene(world).unwrap().fog, None);
        assert!(redo(world));
        assert_eq!((explored(world), steps(world)), (200, (1, 1)));
        // A brush stroke is one step: 4 cells hidden at each dab.
        world.resource_mut::<EditHistory>().begin_group();
        for x in [22.5, 24.0] {
            assert!(edit_fog(world, &FogEdit::Disc { centre: Vec2::new(x, 5.0), radius: 0.5, explored: false }));
        }
        end_group(world);
        assert_eq!((explored(world), steps(world)), (192, (2, 0)), "the stroke cleared the redo step");
        assert!(undo(world));
        assert_eq!(explored(world), 200);
    }

    #[test]
    fn placing_and_deleting_are_undone_in_order() {
        fn names(world: &mut World) -> Vec<String> {
            snapshot_scene(world).unwrap().figures.into_iter().map(|f| f.name).collect()
        }
        let mut app = walker_app();
        let world = app.world_mut();
        apply_edits(world, &[Edit::Place(Placeable::Figure, Vec2::new(5.0, 5.0))]).unwrap();
        apply_edits(world, &[Edit::Delete("Walker".into())]).unwrap();
        assert_eq!(names(world), ["Figure 1"]);
        assert!(undo(world));
        assert_eq!(names(world), ["Walker", "Figure 1"], "back in its place in the scene");
        assert_eq!(walker(world), (1.0, 5.0));
        assert!(undo(world));
        assert_eq!(names(world), ["Walker"]);
        assert!(redo(world) && redo(world));
        assert_eq!(names(world), ["Figure 1"]);
        // An edit that fails changes nothing and is no step.
        assert!(apply_edits(world, &[Edit::Move("Figure 1".into(), Vec2::new(80.0, 5.0))]).is_err());
        assert_eq!(steps(world), (2, 0));
    }

    #[test]
    fn two_hundred_and_one_edits_keep_two_hundred_steps() {
        const { assert!(MAX_UNDO_STEPS >= 200) };
        let mut app = walker_app();
        let world = app.world_mut();
        for i in 0..=MAX_UNDO_STEPS {
            move_walker(world, 2.0 + i as f32 * 0.1);
        }
        assert_eq!(steps(world), (MAX_UNDO_STEPS, 0));
        for _ in 0..MAX_UNDO_STEPS {
            assert!(undo(world));
        }
        assert!(!undo(world), "the first edit's step went");
        assert_eq!(walker(world), (2.0, 5.0), "the first edit stays");
        assert_eq!(steps(world), (0, MAX_UNDO_STEPS));
        assert!(world.resource::<EditHistory>().bytes() < MAX_UNDO_BYTES);
    }

    #[test]
    fn a_new_edit_clears_the_redo_steps() {
        let mut app = walker_app();
        let world = app.world_mut();
        move_walker(world, 2.0);
        move_walker(world, 3.0);
        assert!(undo(world));
        assert_eq!(steps(world), (1, 1));
        move_walker(world, 4.0);
        assert_eq!(steps(world), (2, 0));
        assert!(!redo(world));
        assert!(undo(world) && undo(world));
        assert_eq!(walker(world), (1.0, 5.0));
    }

    #[test]
    fn undo_and_redo_put_the_unsaved_state_back() {
        let dir = std::env::temp_dir().join(format!("tabula-undo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut app = walker_app();
        let world = app.world_mut();
        crate::document::save(world, Some(dir.join("walker.ron"))).unwrap();
        assert!(!dirty(world));
        move_walker(world, 2.0);
        assert!(dirty(world));
        assert!(undo(world));
        assert!(!dirty(world), "saved, edited and undone: saved again");
        assert!(redo(world));
        assert!(dirty(world));
        crate::document::save(world, None).unwrap();
        assert!(!dirty(world));
        assert!(undo(world));
        assert!(dirty(world), "the file holds the edit now");
        assert!(redo(world));
        assert!(!dirty(world));
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Undo never takes back a move: a step closes the edits before it and clears the redo
    /// steps. Rewinding to before the move gives the edits before it back to undo, and drops
    /// the ones made after it.
    #[test]
    fn a_move_closes_the_edits_before_it_and_a_rewind_reopens_them() {
        let mut app = walker_app();
        let world = app.world_mut();
        move_walker(world, 3.0);
        move_walker(world, 2.0);
        assert!(undo(world));
        assert_eq!(steps(world), (1, 1));
        assert!(crate::document::step(world));
        assert_eq!(steps(world), (0, 0), "the move closed the edit and cleared the redo step");
        assert!(!undo(world), "undo never takes back a move");
        assert_eq!(world.resource::<MoveClock>().move_number, 1);
        move_walker(world, 20.0);
        assert_eq!(steps(world), (1, 0));
        assert!(crate::document::rewind(world, 1));
        assert_eq!(walker(world), (3.0, 5.0), "before move 1, after the edit");
        assert_eq!(steps(world), (1, 0), "the edit before the move can be undone again");
        assert!(undo(world));
        assert_eq!(walker(world), (1.0, 5.0));
        assert_eq!(world.resource::<MoveClock>().move_number, 0);
        // Opening another scene forgets every step.
        let scene = snapshot_scene(world).unwrap();
        crate::document::replace_world(world, &scene, Document::default());
        assert_eq!(steps(world), (0, 0));
    }

    #[test]
    fn a_new_seed_is_undone() {
        let mut app = walker_app();
        let world = app.world_mut();
        crate::document::reseed(world, 99);
        assert_eq!(world.resource::<SimDice>().seed, 99);
        assert!(undo(world));
        assert_eq!(world.resource::<SimDice>().seed, 3);
        assert!(redo(world));
        assert_eq!(world.resource::<SimDice>().seed, 99);
    }

    /// An order's undo takes its line out of the dice log; its redo puts the same line back.
    #[test]
    fn an_order_is_undone_with_its_log_line() {
        use crate::rules::magic::Spell;
        use crate::scene::CastOrder;
        let scene = scene_from_str(
            "(version: 1, table: (width: 20, height: 10),
              figures: [(name: \"Mage\", position: (2, 2)), (name: \"Ann\", position: (4, 2))],
              magic: (magicians: [(figure: \"Mage\", mmp: 5)]))",
        );
        let mut app = walker_app();
        crate::document::respawn(app.world_mut(), &scene, 3, None);
        let world = app.world_mut();
        let order = CastOrder {
            name: "GM".into(),
            caster: "Mage".into(),
            at_move: 0,
            spell: Some(Spell::LayEvilEyeCurse),
            ts: None,
            target: Some("Ann".into()),
            victim: None,
            demon_rank: None,
            class: None,
            nearby_noise: false,
            nearby_fighting: false,
            gm_factor: 0,
            attempts_again: 0,
        };
        let before = world.resource::<EventLog>().events.len();
        crate::document::order_cast(world, order).expect("ordered");
        let ordered = world.resource::<EventLog>().events.clone();
        assert_eq!((ordered.len(), steps(world)), (before + 1, (1, 0)));
        assert!(undo(world));
        assert_eq!(world.resource::<EventLog>().events.len(), before);
        assert!(snapshot_scene(world).unwrap().magic.spells.is_empty());
        assert!(redo(world));
        assert_eq!(world.resource::<EventLog>().events, ordered);
        assert_eq!(snapshot_scene(world).unwrap().magic.spells.len(), 1);
    }
}
