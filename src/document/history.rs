//! Stepping and rewinding: a snapshot of the world before every move, so the GM can go back
//! to any earlier move and play on. Dice for a move are seeded from the run seed and the move
//! number, so a replay after a rewind rolls exactly what was rolled before.
//!
//! The rules resolve a whole move at once; the GM may still reveal it a round at a time.
//! [`Reveal`] is the bookkeeping of how much of the last move is revealed (and so which of its
//! log events are shown); how the picture catches up is the view's business.

use super::undo::{self, EditMark};
use crate::rules::decisions::{DecisionError, DecisionOption, DecisionResult, Qualities, score_options};
use crate::scene::osr::CombatOrderEntry;
use crate::scene::{CastOrder, Scene};
use crate::sim::encounters::{OsrBook, round_played_next};
use crate::sim::magic::MagicBook;
use crate::sim::outcome::{EncounterEventOutcome, MagicEventOutcome};
use crate::sim::temptations::{decide_for, decision_event, qualities_of};
use crate::sim::world::{Figure, snapshot_scene};
use crate::sim::{EventLog, LogEvent, MoveClock, SimDice};
use bevy::prelude::*;
use std::collections::{HashSet, VecDeque};

/// Most bytes of snapshots kept (an estimate, see [`estimate_bytes`]); the oldest go first.
/// 256 MiB holds thousands of moves of a small scene, and still hundreds of a big map's.
pub const MAX_HISTORY_BYTES: usize = 256 * 1024 * 1024;

/// One saved state: the world before a move, and how long the log was then.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The world before the move, as a scene.
    pub scene: Scene,
    /// How many events the dice log held then.
    pub log_len: usize,
    /// The scene's estimated size in memory.
    pub bytes: usize,
    /// Where the undo steps of the edits stood then: a rewind here gives them back.
    pub edits: EditMark,
}

impl Snapshot {
    /// The move this snapshot was taken before (1-based).
    pub fn before_move(&self) -> u32 {
        self.scene.clock.moves_played + 1
    }
}

/// Snapshots, oldest first: the world before each move still in reach, kept under a total size
/// in bytes rather than a count (a big map's scene weighs far more than a skirmish's).
#[derive(Resource, Debug)]
pub struct History {
    snapshots: VecDeque<Snapshot>,
    bytes: usize,
    max_bytes: usize,
}

impl Default for History {
    fn default() -> Self {
        Self::with_max_bytes(MAX_HISTORY_BYTES)
    }
}

impl History {
    /// An empty history keeping at most `max_bytes` of snapshots (always the newest one).
    pub fn with_max_bytes(max_bytes: usize) -> Self {
        Self { snapshots: VecDeque::new(), bytes: 0, max_bytes }
    }

    /// Keep the world as it is before a move; the oldest snapshots go while the total is over
    /// the cap (the newest always stays, so the last move can be rewound whatever its size). A
    /// rewind to it leaves nothing to undo ([`History::push_marked`] keeps the undo steps).
    pub fn push(&mut self, scene: Scene, log_len: usize) {
        self.push_marked(scene, log_len, EditMark::default());
    }

    /// [`History::push`], with where the undo steps stand (a rewind to it gives them back).
    pub fn push_marked(&mut self, scene: Scene, log_len: usize, edits: EditMark) {
        let bytes = estimate_bytes(&scene);
        self.bytes += bytes;
        self.snapshots.push_back(Snapshot { scene, log_len, bytes, edits });
        while self.bytes > self.max_bytes && self.snapshots.len() > 1 {
            if let Some(old) = self.snapshots.pop_front() {
                self.bytes -= old.bytes;
            }
        }
    }

    /// Snapshots, oldest first.
    pub fn snapshots(&self) -> impl Iterator<Item = &Snapshot> {
        self.snapshots.iter()
    }

    /// How many snapshots are kept.
    pub fn len(&self) -> usize {
        self.snapshots.len()
    }

    /// No snapshot is kept.
    pub fn is_empty(&self) -> bool {
        self.snapshots.is_empty()
    }

    /// Estimated bytes the snapshots hold.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The earliest move that can be rewound to (the world before it is kept).
    pub fn first_move(&self) -> Option<u32> {
        self.snapshots.front().map(Snapshot::before_move)
    }

    /// Drop every snapshot.
    pub fn clear(&mut self) {
        self.snapshots.clear();
        self.bytes = 0;
    }

    /// Take the snapshot from before `move_number`, dropping it and every later one (they are
    /// played again from it). None when that move is not in reach.
    pub fn take_before(&mut self, move_number: u32) -> Option<Snapshot> {
        let index = self.snapshots.iter().position(|s| s.before_move() == move_number)?;
        let mut later = self.snapshots.split_off(index);
        self.bytes = self.snapshots.iter().map(|s| s.bytes).sum();
        later.pop_front()
    }
}

/// A cheap estimate of a scene's size in memory, in bytes: its structs and the lists and text
/// they own. Counting is linear in the entities and walls, with no serializing.
pub fn estimate_bytes(scene: &Scene) -> usize {
    let text = |s: &String| s.len();
    let mut bytes = size_of::<Scene>() + text(&scene.title);
    bytes += scene.background.as_ref().map_or(0, |b| text(&b.image));
    for r in &scene.terrain {
        bytes += size_of_val(r) + text(&r.name);
        if let crate::scene::Shape::Polygon { points } = &r.shape {
            bytes += size_of_val(points.as_slice());
        }
    }
    for w in &scene.walls {
        bytes += size_of_val(w) + text(&w.name) + size_of_val(w.points.as_slice());
    }
    bytes += size_of_val(scene.doors.as_slice()) + scene.doors.iter().map(|d| text(&d.name)).sum::<usize>();
    for l in &scene.lights {
        bytes += size_of_val(l) + text(&l.name) + text(&l.color);
    }
    for f in &scene.figures {
        bytes += size_of_val(f) + text(&f.name) + text(&f.side);
        bytes += size_of_val(f.path.as_slice()) + size_of_val(f.skills.as_slice());
        bytes += size_of_val(f.conditions.as_slice());
    }
    bytes += size_of_val(scene.traps.as_slice()) + scene.traps.iter().map(|t| text(&t.name)).sum::<usize>();
    bytes += size_of_val(scene.fires.as_slice()) + scene.fires.iter().map(|f| text(&f.name)).sum::<usize>();
    bytes += size_of_val(scene.ignitions.as_slice()) + scene.ignitions.iter().map(|i| text(&i.source)).sum::<usize>();
    bytes += scene.fire_state.as_ref().map_or(0, |f| size_of_val(f) + text(&f.arrivals));
    bytes += scene.fog.as_ref().map_or(0, |f| size_of_val(f) + text(&f.explored));
    for h in &scene.herds {
        bytes += size_of_val(h) + text(&h.name) + text(&h.side);
        bytes += size_of_val(h.beasts.as_slice()) + size_of_val(h.on_grid.as_slice());
        bytes += h.herders.iter().map(|n| size_of_val(n) + text(n)).sum::<usize>();
    }
    for s in &scene.sleepers {
        bytes += size_of_val(s) + text(&s.name) + text(&s.side);
        bytes += size_of_val(s.members.as_slice()) + s.members.iter().map(|m| text(&m.0.name)).sum::<usize>();
    }
    bytes +=
        size_of_val(scene.cattle_grids.as_slice()) + scene.cattle_grids.iter().map(|g| text(&g.name)).sum::<usize>();
    bytes
}

/// How much of the last resolved move is revealed. The world (what is saved, edited and
/// inspected) is always at the end of the last move; only what is shown of it, and the dice
/// log, lag behind while a move is revealed round by round.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reveal {
    /// Rounds of the last move revealed, while that is fewer than all of them.
    rounds: Option<u8>,
}

impl Reveal {
    /// True while only some rounds of the last move are revealed.
    pub fn mid_move(&self) -> bool {
        self.rounds.is_some()
    }

    /// Rounds of the last move revealed so far.
    pub fn revealed_rounds(&self, rounds_per_move: u8) -> u8 {
        self.rounds.unwrap_or(rounds_per_move.max(1))
    }

    /// The last move revealed up to the end of round `rounds`.
    pub fn set(&mut self, rounds: u8, rounds_per_move: u8) {
        self.rounds = (rounds < rounds_per_move.max(1)).then_some(rounds);
    }

    /// The whole of the last move revealed (after a rewind, a reload or an edit).
    pub fn finish(&mut self) {
        self.rounds = None;
    }

    /// Events of move `move_number` (the last) in rounds not yet revealed: (move, last round
    /// revealed), or None when the whole move is.
    pub fn unrevealed(&self, move_number: u32) -> Option<(u32, u8)> {
        self.rounds.map(|r| (move_number, r))
    }
}

/// Whether the dice log shows `event` while the later rounds of a move are held back
/// ([`Reveal::unrevealed`]). Events of the whole move (movement, herds, sleepers) show with its
/// first round; earlier moves show whole.
pub fn event_revealed(event: &LogEvent, unrevealed: Option<(u32, u8)>) -> bool {
    !unrevealed.is_some_and(|(m, r)| event.move_number == m && event.round.is_some_and(|er| er > r))
}

/// What one step revealed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revealed {
    /// More of the move already resolved: now `rounds` of its rounds.
    More {
        /// The rounds of the move now revealed.
        rounds: u8,
    },
    /// The next move, resolved: `rounds` of its rounds revealed.
    NewMove {
        /// The rounds of the new move revealed.
        rounds: u8,
    },
}

/// Save the world, then resolve the next move. Returns false, changing nothing, when the clock
/// stands at the most moves a scene may play; the document's message then says so.
pub fn step(world: &mut World) -> bool {
    if let Err(full) = crate::sim::moves_after(world.resource::<MoveClock>().move_number, 1) {
        if let Some(mut document) = world.get_resource_mut::<super::Document>() {
            document.message = Some(full.to_string());
        }
        return false;
    }
    let edits = undo::mark(world);
    if let Some(scene) = snapshot_scene(world) {
        let log_len = world.resource::<EventLog>().events.len();
        world.resource_mut::<History>().push_marked(scene, log_len, edits);
    }
    crate::sim::step_move(world);
    // Undo never takes back a move: the edits before it are the rewind's now.
    undo::seal(world);
    super::mark_dirty(world);
    true
}

/// `steps` times: reveal more of the move being revealed (one round, or the rest of it), or, at
/// its end, resolve the next move and reveal its first round (`by_round`) or all of it.
/// `before_move` runs just before each move is resolved (the view notes where things stood).
pub fn show_more(
    world: &mut World,
    steps: u32,
    by_round: bool,
    mut before_move: impl FnMut(&mut World),
) -> Vec<Revealed> {
    let mut shown = Vec::new();
    for _ in 0..steps {
        let per_move = world.resource::<MoveClock>().rounds_per_move;
        let reveal = *world.resource::<Reveal>();
        if reveal.mid_move() {
            // The move is resolved already: reveal more of it.
            let rounds = if by_round { reveal.revealed_rounds(per_move) + 1 } else { per_move };
            world.resource_mut::<Reveal>().set(rounds, per_move);
            shown.push(Revealed::More { rounds });
        } else {
            before_move(world);
            if !step(world) {
                // The clock is full: nothing more to resolve.
                break;
            }
            let rounds = if by_round { 1 } else { per_move };
            world.resource_mut::<Reveal>().set(rounds, per_move);
            shown.push(Revealed::NewMove { rounds });
        }
    }
    shown
}

/// Reveal the rest of a move being revealed round by round, or resolve the next move; `moves`
/// times. Returns whether any move was resolved.
pub fn step_moves(world: &mut World, moves: u32) -> bool {
    show_more(world, moves, false, |_| {}).iter().any(|s| matches!(s, Revealed::NewMove { .. }))
}

/// Reveal one more round, `rounds` times: the next round of a move being revealed, or the first
/// of the next move (resolved whole, as the rules resolve it). Returns whether any move was
/// resolved.
pub fn step_rounds(world: &mut World, rounds: u32) -> bool {
    show_more(world, rounds, true, |_| {}).iter().any(|s| matches!(s, Revealed::NewMove { .. }))
}

/// Go back to the world as it was before move `move_number` (1-based). Returns false when
/// that move is not in the history. The log is cut back, not copied.
pub fn rewind(world: &mut World, move_number: u32) -> bool {
    let Some(snapshot) = world.resource_mut::<History>().take_before(move_number) else { return false };
    let mut log = world.remove_resource::<EventLog>().unwrap_or_default();
    log.events.truncate(snapshot.log_len);
    let seed = world.resource::<SimDice>().seed;
    super::respawn(world, &snapshot.scene, seed, Some(log));
    undo::rewound(world, snapshot.edits);
    super::mark_dirty(world);
    true
}

/// Rest the scene `days` days ([`crate::sim::rest()`]): healing, infection and deaths rolled with
/// the world's seed, every roll added to the dice log. The world before is kept in the history
/// (rewinding to its next move undoes the rest). The reason, when the days cannot be rested.
pub fn rest(world: &mut World, days: u32) -> Result<(), String> {
    let Some(scene) = snapshot_scene(world) else { return Err("there is no scene to rest".into()) };
    let seed = world.resource::<SimDice>().seed;
    let run = crate::sim::rest(&scene, days, seed).map_err(|e| e.to_string())?;
    let edits = undo::mark(world);
    let mut log = world.remove_resource::<EventLog>().unwrap_or_default();
    world.resource_mut::<History>().push_marked(scene, log.events.len(), edits);
    log.events.extend(run.log.events);
    super::respawn(world, &run.end, seed, Some(log));
    undo::seal(world);
    super::mark_dirty(world);
    Ok(())
}

/// The GM's decision between moves (the Decide panel): `decider` dices `decision` between
/// `options` as a scene's `decide` order would (000 "To arrive at a decision using card
/// characters"): qualities not given are diced and kept on the figure, and the same `decision`
/// event goes to the dice log. The world before is kept in the history (rewinding to its next
/// move undoes it; undo does not, as it does not a move: the edits before are closed). Dice come
/// from the sim's dice where the last move left them. The reason, when the decision cannot be
/// diced; nothing is rolled then.
pub fn decide(
    world: &mut World,
    decider: &str,
    decision: &str,
    options: &[DecisionOption],
) -> Result<DecisionResult, String> {
    if decision.trim().is_empty() {
        return Err("the decision needs a name".into());
    }
    if options.len() > crate::scene::temptations::MAX_DECISION_OPTIONS {
        return Err(format!(
            "{} options: a decision weighs at most {}",
            options.len(),
            crate::scene::temptations::MAX_DECISION_OPTIONS
        ));
    }
    if let Some(i) = options.iter().position(|o| o.name.trim().is_empty()) {
        return Err(format!("option {} needs a name", i + 1));
    }
    // The options' structure (causation 0-5, one quality doubled, none repeated) is checked
    // before any quality is diced, as a scene's orders are on load.
    score_options(&Qualities::NORM, options).map_err(|e| e.to_string())?;
    let entity = world
        .query::<(Entity, &Figure)>()
        .iter(world)
        .find(|(_, f)| f.0.name == decider)
        .map(|(e, _)| e)
        .ok_or_else(|| format!("no figure is named \"{decider}\""))?;
    let Some(scene) = snapshot_scene(world) else { return Err("there is no scene to decide in".into()) };
    let edits = undo::mark(world);
    let log_len = world.resource::<EventLog>().events.len();
    world.resource_mut::<History>().push_marked(scene, log_len, edits);
    let clock = *world.resource::<MoveClock>();
    // 001 "Lay an evil eye Curse": the decider's D10 takes the curse's −1 here too.
    let cursed = world.get::<crate::sim::magic::Cursed>(entity).is_some();
    let result = world.resource_scope(|world, mut dice: Mut<SimDice>| {
        world.resource_scope(|world, mut log: Mut<EventLog>| -> Option<Result<DecisionResult, DecisionError>> {
            let mut figure = world.get_mut::<Figure>(entity)?;
            let sheet = &mut figure.0;
            let qualities = qualities_of(sheet, "decision", &mut dice, &clock, &mut log);
            let result = decide_for(&qualities, options, cursed, &mut *dice);
            log.push(&clock, decision_event(sheet.name.as_str(), decision, &result));
            Some(result)
        })
    });
    // Diced like a move: undo does not take it back (rewinding does).
    undo::seal(world);
    super::mark_dirty(world);
    match result {
        Some(Ok(result)) => Ok(result),
        Some(Err(e)) => Err(e.to_string()),
        None => Err(format!("no figure is named \"{decider}\"")),
    }
}

/// The problems `add` brings to `scene` (checked as a scene is on load), as one message; the
/// problems the scene already has are the GM's, not the order's.
fn problems_added(scene: &Scene, add: impl FnOnce(&mut Scene)) -> Result<(), String> {
    let before: HashSet<String> = crate::scene::load::validate(scene).iter().map(|p| p.to_string()).collect();
    let mut with_order = scene.clone();
    add(&mut with_order);
    let problems: Vec<String> = crate::scene::load::validate(&with_order)
        .iter()
        .map(|p| p.to_string())
        .filter(|p| !before.contains(p))
        .collect();
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n")) }
}

/// The GM's spell from the GM view (the Magic panel's Cast): `order` joins the scene's spell
/// orders for the next move (its `at_move` is set to it), which casts it as it casts any scene
/// order (001 "Spell Casting": the table read then, every roll logged), and a `cast_ordered`
/// event goes to the dice log now. The order is checked as a scene's orders are on load. The
/// world before is kept in the history (rewinding to the next move undoes it), and the order is
/// an undo step ([`super::undo()`] takes it and its log line back). The order as placed, or the
/// reason it cannot be; nothing changes then.
pub fn order_cast(world: &mut World, mut order: CastOrder) -> Result<CastOrder, String> {
    let clock = *world.resource::<MoveClock>();
    let next = crate::sim::moves_after(clock.move_number, 1).map_err(|e| e.to_string())?;
    order.at_move = next;
    if !world.contains_resource::<MagicBook>() {
        return Err("there is no magic in this world".into());
    }
    let Some(scene) = snapshot_scene(world) else { return Err("there is no scene to cast in".into()) };
    problems_added(&scene, |with_order| with_order.magic.spells.push(order.clone()))?;
    let edits = undo::mark(world);
    let began = undo::note_before(world, Some(&scene));
    let log_len = world.resource::<EventLog>().events.len();
    world.resource_mut::<History>().push_marked(scene, log_len, edits);
    world.resource_mut::<MagicBook>().magic.spells.push(order.clone());
    let mut event = LogEvent::new("magic", "cast_ordered", order.caster.as_str())
        .outcome(MagicEventOutcome::Ordered)
        .field("order", &order.name)
        .field("spell", order.spell.map_or("general", |s| s.id()))
        .field("at_move", next);
    if let Some(t) = &order.target {
        event = event.field("target", t);
    }
    if let Some(ts) = order.ts {
        event = event.field("ts", ts);
    }
    world.resource_mut::<EventLog>().push(&clock, event);
    super::mark_dirty(world);
    undo::note_after(world, began, true);
    Ok(order)
}

/// The GM's order for the OSR combat in progress from the GM view (the OSR panel): a hit on a
/// figure of the encounter, or the end of the combat after the round, for the round the next
/// step plays ([`round_played_next`]; its `encounter` and `round` are set to it). It joins the
/// scene's `osr.combat_orders`, which the Encounters set reads as it reads any scene's (the hit
/// lands, morale is checked, the combat ends after the round), and a `combat_ordered` event
/// goes to the dice log now. The order is checked as a scene's orders are on load. The world
/// before is kept in the history (rewinding to the next move undoes it), and the order is an
/// undo step ([`super::undo()`]). The order as placed, or the reason it cannot be; nothing
/// changes then.
pub fn order_combat(world: &mut World, mut order: CombatOrderEntry) -> Result<CombatOrderEntry, String> {
    let Some(book) = world.get_resource::<OsrBook>() else {
        return Err("there is no OSR procedure in this world".into());
    };
    if !book.is_osr() {
        return Err("the scene's rules family is not osr".into());
    }
    let Some(state) = book.section.encounter.clone() else { return Err("no combat is in progress".into()) };
    let osr_clock = book.section.clock;
    order.encounter = state.number;
    order.round = round_played_next(&state);
    if let Some(target) = &order.target
        && !state.monsters.iter().chain(&state.party).any(|n| n == target)
    {
        return Err(format!("target: \"{target}\" is not a figure of encounter {}", state.number));
    }
    let Some(scene) = snapshot_scene(world) else { return Err("there is no scene to order in".into()) };
    problems_added(&scene, |with_order| with_order.osr.combat_orders.push(order.clone()))?;
    let clock = *world.resource::<MoveClock>();
    let edits = undo::mark(world);
    let began = undo::note_before(world, Some(&scene));
    let log_len = world.resource::<EventLog>().events.len();
    world.resource_mut::<History>().push_marked(scene, log_len, edits);
    world.resource_mut::<OsrBook>().section.combat_orders.push(order.clone());
    let subject = order.target.clone().unwrap_or_else(|| state.entry.clone());
    let event = LogEvent::new("encounters", "combat_ordered", subject)
        .outcome(EncounterEventOutcome::Ordered)
        .field("encounter", order.encounter)
        .field("round", order.round)
        .field("damage", order.damage)
        .field("end", order.end.map(|e| e.id()));
    world.resource_mut::<EventLog>().push(&clock, crate::sim::encounters::stamped(event, osr_clock));
    super::mark_dirty(world);
    undo::note_after(world, began, true);
    Ok(order)
}

/// A new seed: it changes the moves still to come; what was rolled stays in the log. An undo
/// step ([`super::undo()`]) puts the old seed back.
pub fn reseed(world: &mut World, seed: u64) {
    let began = undo::note_before(world, None);
    let changed = world.resource::<SimDice>().seed != seed;
    world.resource_mut::<SimDice>().seed = seed;
    super::mark_dirty(world);
    undo::note_after(world, began, changed);
}

#[cfg(test)]
mod tests {
    use super::super::Document;
    use super::*;
    use crate::sim::testing::scene_from_str;
    use crate::sim::world::TablePosition;

    fn app() -> App {
        crate::document::walker_app()
    }

    fn position(world: &mut World) -> Vec2 {
        world.query::<&TablePosition>().single(world).unwrap().0
    }

    #[test]
    fn rewind_restores_the_world_and_log_and_replays_the_same() {
        let mut app = app();
        let world = app.world_mut();
        for _ in 0..3 {
            step(world);
        }
        let after_three = world.resource::<EventLog>().to_json_lines();
        assert_eq!(world.resource::<MoveClock>().move_number, 3);
        assert!(world.resource::<Document>().dirty, "stepping changes the document");
        assert!(rewind(world, 2), "move 2 is in the history");
        assert_eq!(world.resource::<MoveClock>().move_number, 1);
        assert_eq!(world.resource::<EventLog>().events.len(), 1);
        assert!((position(world).x - 7.0).abs() < 1e-4);
        assert_eq!(world.resource::<History>().len(), 1);
        assert_eq!(world.resource::<History>().first_move(), Some(1));
        step(world);
        step(world);
        assert_eq!(world.resource::<EventLog>().to_json_lines(), after_three);
        assert!(!rewind(world, 9), "a move not yet played cannot be rewound to");
    }

    #[test]
    fn the_history_is_capped_by_size_and_drops_the_oldest_first() {
        let scene = scene_from_str("(version: 1, table: (width: 40, height: 10))");
        let one = estimate_bytes(&scene);
        assert!(one > 0);
        // Room for three snapshots of this size.
        let mut history = History::with_max_bytes(3 * one + one / 2);
        for moves_played in 0..5 {
            let mut s = scene.clone();
            s.clock.moves_played = moves_played;
            history.push(s, moves_played as usize);
        }
        assert_eq!(history.len(), 3);
        assert!(history.bytes() <= 3 * one + one / 2);
        assert_eq!(history.first_move(), Some(3), "moves 1 and 2 were dropped, the oldest first");
        assert_eq!(history.snapshots().map(|s| s.log_len).collect::<Vec<_>>(), vec![2, 3, 4]);
        // A bigger scene weighs more: the same cap holds fewer of it.
        let mut big = scene.clone();
        let points = vec![(1.0, 1.0); 100_000];
        big.walls = vec![crate::scene::Wall::new("w", Default::default(), points)];
        assert!(estimate_bytes(&big) > one + 100_000 * 8);
        history.push(big, 9);
        assert_eq!(history.len(), 1, "the newest always stays, even over the cap");
        // Taking a snapshot drops it and every later one.
        let mut history = History::default();
        for moves_played in 0..4 {
            let mut s = scene.clone();
            s.clock.moves_played = moves_played;
            history.push(s, 0);
        }
        assert_eq!(history.take_before(3).map(|s| s.before_move()), Some(3));
        assert_eq!(history.len(), 2);
        assert_eq!(history.bytes(), 2 * one);
        assert!(history.take_before(3).is_none());
    }

    #[test]
    fn stepping_a_round_resolves_the_move_and_reveals_its_first_round() {
        let mut app = app();
        let world = app.world_mut();
        assert_eq!(show_more(world, 1, true, |_| {}), vec![Revealed::NewMove { rounds: 1 }]);
        assert_eq!(world.resource::<MoveClock>().move_number, 1);
        let reveal = *world.resource::<Reveal>();
        assert!(reveal.mid_move());
        assert_eq!(reveal.revealed_rounds(2), 1);
        assert_eq!(reveal.unrevealed(1), Some((1, 1)));
        // The world is at the end of the move.
        assert!((position(world).x - 7.0).abs() < 1e-4);

        // The second round reveals the rest of the same move; nothing is rolled again.
        let log_len = world.resource::<EventLog>().events.len();
        assert_eq!(show_more(world, 1, true, |_| {}), vec![Revealed::More { rounds: 2 }]);
        assert_eq!(world.resource::<MoveClock>().move_number, 1);
        assert!(!world.resource::<Reveal>().mid_move());
        assert_eq!(world.resource::<EventLog>().events.len(), log_len);

        // A move step part-way through a move finishes it first, then resolves the next.
        assert!(step_rounds(world, 1));
        assert!(!step_moves(world, 1));
        assert_eq!(world.resource::<MoveClock>().move_number, 2);
        let mut before = 0;
        assert_eq!(show_more(world, 1, false, |_| before += 1), vec![Revealed::NewMove { rounds: 2 }]);
        assert_eq!(before, 1, "the hook runs before each move resolved");
        assert_eq!(world.resource::<MoveClock>().move_number, 3);
        assert!(!world.resource::<Reveal>().mid_move());
        // A rewind reveals the whole of the move it lands after.
        assert!(step_rounds(world, 1));
        assert!(rewind(world, 4));
        assert!(!world.resource::<Reveal>().mid_move());
    }

    #[test]
    fn round_steps_roll_what_move_steps_roll() {
        let mut by_moves = app();
        step_moves(by_moves.world_mut(), 3);
        let mut by_rounds = app();
        step_rounds(by_rounds.world_mut(), 6);
        assert_eq!(
            by_moves.world().resource::<EventLog>().to_json_lines(),
            by_rounds.world().resource::<EventLog>().to_json_lines()
        );
    }

    #[test]
    fn later_rounds_of_a_move_being_revealed_are_held_back_from_the_log() {
        let event = |move_number, round| {
            let mut e = LogEvent::new("fire", "happened", "someone");
            e.move_number = move_number;
            e.round = round;
            e
        };
        let mut reveal = Reveal::default();
        assert!(event_revealed(&event(2, Some(2)), reveal.unrevealed(2)));
        reveal.set(1, 2);
        let unrevealed = reveal.unrevealed(2);
        assert!(!event_revealed(&event(2, Some(2)), unrevealed));
        assert!(event_revealed(&event(2, Some(1)), unrevealed));
        assert!(event_revealed(&event(2, None), unrevealed), "events of the whole move show with its first round");
        assert!(event_revealed(&event(1, Some(2)), unrevealed), "earlier moves show whole");
        reveal.set(2, 2);
        assert_eq!(reveal, Reveal::default());
    }

    /// The GM steps a scene whose clock stands at the most moves a scene may play: nothing is
    /// resolved or saved in the history, and the document says why.
    #[test]
    fn stepping_a_full_clock_resolves_nothing_and_says_so() {
        let mut app = app();
        let world = app.world_mut();
        world.resource_mut::<MoveClock>().move_number = crate::scene::load::MAX_MOVES_PLAYED;
        assert!(!step(world));
        assert!(!step_moves(world, 3));
        assert!(!step_rounds(world, 3));
        assert_eq!(world.resource::<MoveClock>().move_number, crate::scene::load::MAX_MOVES_PLAYED);
        assert!(world.resource::<EventLog>().events.is_empty());
        assert!(world.resource::<History>().is_empty());
        let message = world.resource::<Document>().message.clone().unwrap_or_default();
        assert!(message.contains("most moves"), "{message}");
    }

    /// Resting from the GM view: the days' rolls join the dice log, the clock moves on by the
    /// days, and a rewind to the move after the rest undoes it.
    #[test]
    fn resting_days_logs_the_rolls_and_can_be_rewound() {
        let scene = scene_from_str(
            "(version: 1, table: (width: 20, height: 10),
              figures: [(name: \"Hurt\", position: (2, 2), conditions: [(name: \"sore wound\", kind: sore_wounded)])])",
        );
        let mut app = crate::document::walker_app();
        crate::document::respawn(app.world_mut(), &scene, 3, None);
        let before = app.world().resource::<EventLog>().events.len();
        rest(app.world_mut(), 2).expect("two days rest");
        let world = app.world();
        assert!(world.resource::<EventLog>().events.len() > before, "the rest's rolls are logged");
        assert_eq!(world.resource::<MoveClock>().move_number, 2 * scene.rules.moves_per_day);
        assert!(world.resource::<super::super::Document>().dirty);
        assert!(rewind(app.world_mut(), 1));
        assert_eq!(app.world().resource::<MoveClock>().move_number, 0);
        assert!(rest(app.world_mut(), 0).is_err(), "a rest is 1 day or more");
    }

    /// A decision from the GM view's Decide panel: the decider's unknown qualities are diced and
    /// kept, the same `decision` event as a `decide` order's is logged, and a rewind undoes it.
    /// A decision the dice cannot take is refused before anything is rolled.
    #[test]
    fn a_decision_from_the_gm_is_logged_kept_and_can_be_rewound() {
        use crate::rules::decisions::{Quality, QualityWeight, Relevance};
        let scene = scene_from_str(
            "(version: 1, table: (width: 20, height: 10),
              figures: [(name: \"Ann\", position: (2, 2), qualities: (loyalty: 5))])",
        );
        let mut app = crate::document::walker_app();
        crate::document::respawn(app.world_mut(), &scene, 3, None);
        let options = vec![
            DecisionOption {
                name: "wait".into(),
                causation: 2,
                charmer_rating: 0,
                qualities: vec![QualityWeight { quality: Quality::Loyalty, relevance: Relevance::Doubled }],
            },
            DecisionOption { name: "go".into(), causation: 3, charmer_rating: 0, qualities: vec![] },
        ];
        let world = app.world_mut();
        let before = world.resource::<EventLog>().events.len();
        assert!(decide(world, "Ann", "Wait?", &options[1..]).is_err(), "no quality doubled");
        assert!(decide(world, "Nobody", "Wait?", &options).is_err(), "no such figure");
        assert_eq!(world.resource::<EventLog>().events.len(), before, "nothing rolled when refused");
        assert!(world.resource::<History>().is_empty());
        let result = decide(world, "Ann", "Wait?", &options).expect("diced");
        assert_eq!(result.scores.len(), 2);
        let events = &world.resource::<EventLog>().events;
        assert_eq!(events.len(), before + 2, "the qualities diced, then the decision");
        let event = &events[events.len() - 1];
        assert_eq!((event.system, event.event, event.subject.as_str()), ("decisions", "decision", "Ann"));
        assert_eq!(event.fields["decision"], "Wait?");
        assert_eq!(event.fields["chosen"], result.chosen_name());
        assert!(world.resource::<Document>().dirty);
        let known = world.query::<&Figure>().single(world).unwrap().0.qualities;
        assert!(Quality::ALL.iter().all(|&q| known.get(q).is_some()), "the diced qualities are kept");
        assert_eq!(known.loyalty, Some(5));
        assert!(rewind(world, 1), "the decision can be rewound");
        assert_eq!(world.resource::<EventLog>().events.len(), before);
        let known = world.query::<&Figure>().single(world).unwrap().0.qualities;
        assert_eq!(known.energy, None);
    }

    /// A spell cast from the GM view's Magic panel: the order joins the scene for the next move
    /// and is logged now; stepping that move casts it, its roll in the log; a rewind undoes both.
    /// An order the scene would refuse changes nothing.
    #[test]
    fn a_spell_cast_from_the_gm_is_ordered_for_the_next_move_logged_and_can_be_rewound() {
        use crate::rules::magic::Spell;
        let scene = scene_from_str(
            "(version: 1, table: (width: 20, height: 10),
              figures: [(name: \"Mage\", position: (2, 2)), (name: \"Ann\", position: (4, 2))],
              magic: (magicians: [(figure: \"Mage\", mmp: 5)]))",
        );
        let mut app = crate::document::walker_app();
        crate::document::respawn(app.world_mut(), &scene, 3, None);
        let world = app.world_mut();
        assert!(step(world));
        let order = |spell, target: Option<&str>| CastOrder {
            name: "GM".into(),
            caster: "Mage".into(),
            at_move: 0,
            spell,
            ts: None,
            target: target.map(String::from),
            victim: None,
            demon_rank: None,
            class: None,
            nearby_noise: false,
            nearby_fighting: false,
            gm_factor: 0,
            attempts_again: 0,
        };
        let before = world.resource::<EventLog>().events.len();
        let kept = world.resource::<History>().len();
        let mut nobody = order(Some(Spell::DryClothes), None);
        nobody.caster = "Nobody".into();
        let err = order_cast(world, nobody).unwrap_err();
        assert!(err.contains("caster"), "{err}");
        let err = order_cast(world, order(Some(Spell::Mesmerise), Some("Ann"))).unwrap_err();
        assert!(err.contains("class"), "{err}");
        assert_eq!(world.resource::<EventLog>().events.len(), before, "nothing logged when refused");
        assert_eq!(world.resource::<History>().len(), kept, "nothing kept when refused");
        assert!(snapshot_scene(world).unwrap().magic.spells.is_empty());

        let placed = order_cast(world, order(Some(Spell::LayEvilEyeCurse), Some("Ann"))).expect("ordered");
        assert_eq!(placed.at_move, 2, "for the next move");
        let events = &world.resource::<EventLog>().events;
        assert_eq!(events.len(), before + 1);
        let e = &events[before];
        assert_eq!((e.system, e.event, e.subject.as_str(), e.outcome), ("magic", "cast_ordered", "Mage", "ordered"));
        assert_eq!(e.fields["at_move"], 2);
        assert_eq!(e.fields["spell"], "lay_evil_eye_curse");
        assert_eq!(e.fields["target"], "Ann");
        assert!(world.resource::<Document>().dirty);
        assert_eq!(snapshot_scene(world).unwrap().magic.spells, vec![placed]);

        assert!(step(world));
        let casts: Vec<&LogEvent> = world.resource::<EventLog>().events.iter().filter(|e| e.event == "cast").collect();
        assert_eq!(casts.len(), 1, "the next move casts it once");
        assert_eq!((casts[0].move_number, casts[0].subject.as_str()), (2, "Mage"));
        assert!(!casts[0].rolls.is_empty(), "its roll is logged");

        assert!(rewind(world, 2), "the order and the move it was cast in can be rewound");
        assert_eq!(world.resource::<EventLog>().events.len(), before);
        assert!(snapshot_scene(world).unwrap().magic.spells.is_empty());
        assert_eq!(world.resource::<MoveClock>().move_number, 1);
    }

    /// A hit and an end ordered from the GM view's OSR panel: set for the encounter in progress
    /// and the round the next step plays, logged now, landing when that step is played (the hit,
    /// then the end after the round, though the hit is listed first); a rewind undoes them. An
    /// order the scene would refuse, or one with no combat to order in, changes nothing.
    #[test]
    fn combat_orders_from_the_gm_land_in_the_next_round_and_can_be_rewound() {
        use crate::rules::osr::CombatEnd;
        let mut app = crate::document::walker_app();
        let world = app.world_mut();
        let hit = |target: Option<&str>, damage: i32| CombatOrderEntry {
            encounter: 0,
            round: 0,
            target: target.map(String::from),
            damage,
            end: None,
        };
        let err = order_combat(world, hit(Some("Walker"), 1)).unwrap_err();
        assert!(err.contains("rules family"), "a Morval scene has no combat to order in: {err}");
        let scene = scene_from_str(
            "(version: 1, table: (width: 20, height: 20), rules_family: osr,
              figures: [(name: \"Hero\", position: (5, 5)),
                        (name: \"goblin 1-1\", side: \"monsters\", position: (9, 5))],
              osr: (sheets: [(figure: \"Hero\", hp: 6, max_hp: 6),
                             (figure: \"goblin 1-1\", hp: 3, max_hp: 3, morale: 7)],
                    encounter_table: [(name: \"goblin\", count: 1, morale: 7, hp: 3)],
                    encounters_had: 1,
                    encounter: (number: 1, entry: \"goblin\", monsters: [\"goblin 1-1\"], party: [\"Hero\"],
                                reaction: hostile, phase: s6_melee, round: 1)))",
        );
        crate::document::respawn(world, &scene, 3, None);
        let before = world.resource::<EventLog>().events.len();
        let kept = world.resource::<History>().len();
        let err = order_combat(world, hit(Some("Nobody"), 2)).unwrap_err();
        assert!(err.contains("target"), "{err}");
        let err = order_combat(world, hit(None, 0)).unwrap_err();
        assert!(err.contains("target or end"), "{err}");
        assert_eq!(world.resource::<EventLog>().events.len(), before, "nothing logged when refused");
        assert_eq!(world.resource::<History>().len(), kept, "nothing kept when refused");

        let placed = order_combat(world, hit(Some("goblin 1-1"), 1)).expect("ordered");
        assert_eq!((placed.encounter, placed.round), (1, 2), "after the surprise round's melee comes round 2");
        let events = &world.resource::<EventLog>().events;
        assert_eq!(events.len(), before + 1);
        let e = &events[before];
        assert_eq!(
            (e.system, e.event, e.subject.as_str(), e.outcome),
            ("encounters", "combat_ordered", "goblin 1-1", "ordered")
        );
        assert_eq!((e.fields["round"].as_u64(), e.fields["damage"].as_i64()), (Some(2), Some(1)));
        assert!(world.resource::<Document>().dirty);
        let retreat = CombatOrderEntry { end: Some(CombatEnd::Retreat), ..hit(None, 0) };
        let ended = order_combat(world, retreat).expect("ordered");
        assert_eq!((ended.encounter, ended.round), (1, 2));
        assert_eq!(world.resource::<EventLog>().events[before + 1].subject, "goblin", "an end is the row's");
        assert_eq!(snapshot_scene(world).unwrap().osr.combat_orders, vec![placed, ended]);

        assert!(step(world));
        let log = &world.resource::<EventLog>().events;
        let hits: Vec<&LogEvent> = log.iter().filter(|e| e.event == "hit").collect();
        assert_eq!(hits.len(), 1, "the hit lands once, in round 2");
        assert_eq!((hits[0].outcome, hits[0].fields["hp"].as_i64()), ("hit", Some(2)));
        let ended: Vec<&LogEvent> = log.iter().filter(|e| e.event == "combat_ended").collect();
        assert_eq!(ended.len(), 1);
        assert_eq!(ended[0].outcome, CombatEnd::Retreat.id());
        assert!(snapshot_scene(world).unwrap().osr.encounter.is_none());

        assert!(rewind(world, 1), "the orders and the round they landed in can be rewound");
        assert_eq!(world.resource::<EventLog>().events.len(), before);
        let back = snapshot_scene(world).unwrap();
        assert!(back.osr.combat_orders.is_empty());
        assert_eq!(back.osr.encounter.map(|e| e.round), Some(1));
    }
}
