//! Magic on the table: occult beings walk, spell orders are cast, wards dice for the beings
//! that come within their reach, and magicians recover Magic Power (001 "MAGIC!", "Spell
//! Casting", "Occult Wards", "Spells"). The readings are in docs/magic.md "In a scene".
//!
//! The Magic set runs after Temptations and before Fire, in one exclusive system; each step
//! visits its entries in scene order:
//! 1. the occult beings with a path walk it at their `move_rate` (a ghost through walls, the
//!    others stopping at one);
//! 2. the spell orders for this move are cast, each reading the table: the people present
//!    within `rules.magic.presence_reach_in` of the caster, the lighting where the caster stands,
//!    the victim's distance, a silver ward near by; a success summons or reveals beings (each
//!    figure near a revealed being with a fright value then dices against it), lays a curse or
//!    mesmerises;
//! 3. every ward dices once an approach for each being it names that is within its reach;
//! 4. each magician who cast nothing recovers Magic Power: 2 standing still all move (resting),
//!    none running, else 1, up to the MMP as reduced now.
//!
//! A figure under the evil eye carries [`Cursed`]; every system that rolls for a figure adds
//! the curse's −1 to that figure's throws, through [`evil_eye_on`] or, where the rule reads the
//! roll before it returns, the rule's own `evil_eye` input (docs/magic.md "The evil eye in other
//! systems" lists each roll).

use super::clock::{MoveClock, SimDice};
use super::log::{EventLog, LogEvent, point_to_thousandths, round_to_thousandths};
use super::outcome::MagicEventOutcome;
use super::world::{
    Conditions, Figure, Lights, LoadedScene, SceneLighting, SceneOrder, Swept, TablePosition, Walls, lighting_at,
    placed_bundle, point, sorted, vec2,
};
use super::{Move, MoveSystems};
use crate::rules::character::Gait;
use crate::rules::dice::{Roll, Rolls};
use crate::rules::injuries::WoundRecovery;
use crate::rules::lighting::Lighting;
use crate::rules::magic::{
    Attempt, MagicSettings, Magician, MesmerSubject, Mesmerism, MoveActivity, Spell, SpellLockouts, SpellOrder,
    SpellOutcome, VictimDistance, WardKind, WardOutcome, WardedBeing, apply_evil_eye, attempt_spell, cast_general,
    occult_fright_test, recover_magic_power, ward_check,
};
use crate::scene::{self, ConditionKind, CurseKind, Scene};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MagicBook>();
    app.add_systems(Move, resolve_magic.in_set(MoveSystems::Magic));
}

/// How far short of a wall a walking being stops, inches.
const WALL_STANDOFF_IN: f32 = 0.05;

/// A figure under the evil eye: "One that deducts 1 from every dice throw for character" (001
/// "Spells", Lay an evil eye Curse). Put on when the curse is laid, or on load for a curse the
/// scene lists.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cursed;

/// 001 "Spells", Lay an evil eye Curse: the −1 on a roll of a figure `cursed` (the figure's
/// [`Cursed`], if it has one), added after the roll's own factors; true when the curse took a
/// point off, and the caller then reads the outcome again from the new total with the rule's
/// own classifier. Rules whose later dice hang on the outcome take the curse as an input instead.
pub fn evil_eye_on(roll: &mut Roll, cursed: Option<&Cursed>) -> bool {
    apply_evil_eye(roll, cursed.is_some());
    cursed.is_some()
}

/// An occult being on the table: the scene's entry (its position is the entity's
/// [`TablePosition`]; its path, revealed state and wards are kept here).
#[derive(Component, Debug, Clone)]
pub struct OccultBeing(pub scene::OccultBeing);

/// The scene's magic as play has changed it: magicians (their MP, fatigue, failed spells),
/// spell orders, wards, curses and mesmerisms (the beings are entities), with `rules.magic`.
#[derive(Resource, Debug, Clone, Default)]
pub struct MagicBook {
    /// The scene's `magic` section, its `beings` empty (they are [`OccultBeing`] entities).
    pub magic: scene::MagicSection,
    /// `rules.magic`.
    pub settings: MagicSettings,
}

/// Spawn the scene's occult beings, mark the figures under the evil eye and keep the rest.
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    let mut magic = scene.magic.clone();
    let beings = std::mem::take(&mut magic.beings);
    for (i, b) in beings.into_iter().enumerate() {
        world.spawn((placed_bundle(i as u32, &b.name, b.position), OccultBeing(b)));
    }
    let cursed: Vec<Entity> = world
        .query::<(Entity, &Figure)>()
        .iter(world)
        .filter(|(_, f)| magic.evil_eye_on(&f.0.name))
        .map(|(e, _)| e)
        .collect();
    for e in cursed {
        world.entity_mut(e).insert(Cursed);
    }
    world.insert_resource(MagicBook { magic, settings: scene.rules.magic.clone() });
}

/// Write the magic back into the scene: the book, and each being where it stands now.
pub(super) fn snapshot(world: &mut World, scene: &mut Scene) {
    let Some(mut magic) = world.get_resource::<MagicBook>().map(|b| b.magic.clone()) else { return };
    magic.beings = sorted::<OccultBeing>(world)
        .into_iter()
        .map(|(_, OccultBeing(mut b), e)| {
            if let Some(p) = world.entity(e).get::<TablePosition>() {
                b.position = point(p.0);
            }
            b
        })
        .collect();
    scene.magic = magic;
}

/// A figure as the magic reads it.
struct Body {
    entity: Entity,
    name: String,
    position: Vec2,
    /// It walked some way this move.
    moved: bool,
    /// It ran this move (a fatigue point).
    running: bool,
    wound: Option<WoundRecovery>,
    cursed: bool,
}

/// A being as the pass works on it.
struct BeingRt {
    entity: Entity,
    being: scene::OccultBeing,
    position: Vec2,
    changed: bool,
}

/// One move's magic, worked out of the world and written back.
struct Pass {
    move_number: u32,
    day: u32,
    settings: MagicSettings,
    magic: scene::MagicSection,
    bodies: Vec<Body>,
    beings: Vec<BeingRt>,
    base: Lighting,
    lights: Lights,
    walls: Walls,
    dice: SimDice,
    out: Vec<LogEvent>,
    /// The magicians who rolled to cast this move: they recover nothing this move.
    cast_by: Vec<String>,
    /// The magicians who spent a fatigue point this move (an attempt again).
    fatigued: Vec<String>,
    /// Figures the evil eye was laid on this move.
    newly_cursed: Vec<Entity>,
}

/// The worst of 001 "Wound Recoveries"' wounds among a figure's conditions: the wound that
/// reduces a magician's MMP (the Magic set and the GM view's MP bars read it alike).
pub fn wound_of(conditions: &[scene::Condition]) -> Option<WoundRecovery> {
    let has = |k: ConditionKind| conditions.iter().any(|c| c.kind == k);
    if has(ConditionKind::SoreWounded) {
        Some(WoundRecovery::SoreWounded)
    } else if has(ConditionKind::Wounded) {
        Some(WoundRecovery::Wounded)
    } else if has(ConditionKind::FleshWounded) {
        Some(WoundRecovery::FleshWounded)
    } else {
        None
    }
}

/// The Magic set: beings walk, orders are cast, wards dice, Magic Power comes back.
/// What the magic pass reads of each occult being.
type BeingData = (Entity, &'static SceneOrder, &'static OccultBeing, &'static TablePosition);

/// What the magic pass reads of each figure.
type BodyData = (
    Entity,
    &'static SceneOrder,
    &'static Figure,
    &'static TablePosition,
    &'static Swept,
    &'static Conditions,
    Option<&'static Cursed>,
);

/// The queries are the system's own, built once (a play-test runs this thousands of times).
fn resolve_magic(world: &mut World, being_query: &mut QueryState<BeingData>, body_query: &mut QueryState<BodyData>) {
    let Some(book) = world.get_resource::<MagicBook>() else { return };
    if book.magic.magicians.is_empty() && being_query.iter(world).next().is_none() {
        // Nothing to cast, nothing to ward: no die is rolled, so other systems' dice are as before.
        return;
    }
    let book = book.clone();
    let mut beings: Vec<(u32, BeingRt)> = being_query
        .iter(world)
        .map(|(entity, order, b, p)| (order.0, BeingRt { entity, being: b.0.clone(), position: p.0, changed: false }))
        .collect();
    beings.sort_by_key(|(o, _)| *o);
    let mut bodies: Vec<(u32, Body)> = body_query
        .iter(world)
        .map(|(entity, order, figure, position, swept, conditions, cursed)| {
            let moved = swept.segments.iter().any(|(a, b)| a.distance(*b) > 1e-4);
            let body = Body {
                entity,
                name: figure.0.name.clone(),
                position: position.0,
                moved,
                running: moved && figure.0.gait == Gait::Running,
                wound: wound_of(&conditions.0),
                cursed: cursed.is_some(),
            };
            (order.0, body)
        })
        .collect();
    bodies.sort_by_key(|(o, _)| *o);
    let clock = *world.resource::<MoveClock>();
    let moves_per_day = world.get_resource::<LoadedScene>().map_or(480, |s| s.0.rules.moves_per_day).max(1);
    let mut pass = Pass {
        move_number: clock.move_number,
        day: clock.move_number.saturating_sub(1) / moves_per_day,
        settings: book.settings,
        magic: book.magic,
        bodies: bodies.into_iter().map(|(_, b)| b).collect(),
        beings: beings.into_iter().map(|(_, b)| b).collect(),
        base: world.get_resource::<SceneLighting>().map(|l| l.0).unwrap_or_default(),
        lights: world.get_resource::<Lights>().cloned().unwrap_or_default(),
        walls: world.get_resource::<Walls>().cloned().unwrap_or_default(),
        dice: world.resource::<SimDice>().clone(),
        out: Vec::new(),
        cast_by: Vec::new(),
        fatigued: Vec::new(),
        newly_cursed: Vec::new(),
    };
    pass.walk_beings();
    // "Until another day": the failures of earlier days no longer lock anything.
    let day = pass.day;
    for m in &mut pass.magic.magicians {
        m.failed.retain(|f| f.day >= day);
    }
    let orders: Vec<scene::CastOrder> =
        pass.magic.spells.iter().filter(|o| o.at_move == pass.move_number).cloned().collect();
    for order in &orders {
        pass.cast(order);
    }
    pass.ward_checks();
    pass.recover();
    write_back(world, pass, &clock);
}

fn write_back(world: &mut World, pass: Pass, clock: &MoveClock) {
    world.insert_resource(pass.dice);
    for b in pass.beings {
        if !b.changed {
            continue;
        }
        let mut entity = world.entity_mut(b.entity);
        if let Some(mut p) = entity.get_mut::<TablePosition>() {
            p.0 = b.position;
        }
        if let Some(mut being) = entity.get_mut::<OccultBeing>() {
            being.0 = b.being;
        }
    }
    for e in pass.newly_cursed {
        world.entity_mut(e).insert(Cursed);
    }
    world.insert_resource(MagicBook { magic: pass.magic, settings: pass.settings });
    let mut log = world.resource_mut::<EventLog>();
    for e in pass.out {
        log.push(clock, e);
    }
}

impl Pass {
    fn body(&self, name: &str) -> Option<&Body> {
        self.bodies.iter().find(|b| b.name == name)
    }

    /// Whether `name` is under the evil eye (a figure, or a victim off the table).
    fn cursed(&self, name: &str) -> bool {
        self.body(name).is_some_and(|b| b.cursed) || self.magic.evil_eye_on(name)
    }

    /// Whether `figure` carries a ward: "The possession of a Ward".
    fn carries_ward(&self, figure: &str) -> bool {
        self.magic.wards.iter().any(|w| w.carried_by.as_deref() == Some(figure))
    }

    /// Where a ward is now: its point, or its carrier's.
    fn ward_at(&self, ward: &scene::Ward) -> Option<Vec2> {
        match (&ward.carried_by, ward.position) {
            (Some(by), _) => self.body(by).map(|b| b.position),
            (None, Some(p)) => Some(vec2(p)),
            (None, None) => None,
        }
    }

    /// The magician entry `i` as the rules read him now.
    fn magician(&self, i: usize) -> Magician {
        let entry = &self.magic.magicians[i];
        let body = self.body(&entry.figure);
        Magician {
            maximum_magic_power: entry.mmp,
            magic_power: entry.mp.unwrap_or(entry.mmp),
            tired: entry.tired,
            wound: body.and_then(|b| b.wound),
            evil_eye: self.cursed(&entry.figure),
        }
    }

    /// Step 1: Beings with a path walk it, `move_rate` inches a move; a ghost passes walls, the
    /// others stop short of the first wall in the way.
    fn walk_beings(&mut self) {
        for b in &mut self.beings {
            let Some(rate) = b.being.move_rate else { continue };
            if b.being.path.is_empty() {
                continue;
            }
            let from = b.position;
            let mut at = from;
            let mut left = rate;
            let mut blocked = false;
            while left > 1e-6 {
                let Some(&next) = b.being.path.first() else { break };
                let next = vec2(next);
                let d = at.distance(next);
                let reach = if d <= left { next } else { at + (next - at) * (left / d) };
                if b.being.kind != WardedBeing::Ghost
                    && let Some(t) = self.walls.first_hit(at, reach)
                {
                    let len = at.distance(reach);
                    let stop = (len * t - WALL_STANDOFF_IN).max(0.0);
                    if len > 0.0 {
                        at += (reach - at) * (stop / len);
                    }
                    blocked = true;
                    break;
                }
                if d <= left {
                    at = next;
                    left -= d;
                    b.being.path.remove(0);
                } else {
                    at = reach;
                    left = 0.0;
                }
            }
            let outcome = if blocked {
                MagicEventOutcome::BlockedByWall
            } else if b.being.path.is_empty() {
                MagicEventOutcome::Arrived
            } else {
                MagicEventOutcome::Moved
            };
            b.position = at;
            b.changed = true;
            self.out.push(
                LogEvent::new("magic", "being_moved", b.being.name.as_str())
                    .outcome(outcome)
                    .field("kind", b.being.kind.id())
                    .field("from", point_to_thousandths(from))
                    .field("to", point_to_thousandths(at))
                    .field("revealed", b.being.revealed),
            );
        }
    }

    /// Step 2: One spell order: the spell read off the table, cast (and cast again after a "0" as
    /// the order allows), and what it does when it succeeds.
    fn cast(&mut self, order: &scene::CastOrder) {
        let Some(mi) = self.magic.magicians.iter().position(|m| m.figure == order.caster) else { return };
        let Some(at) = self.body(&order.caster).map(|b| b.position) else { return };
        let name = order.lockout_name();
        let mut again = 0u32;
        loop {
            let magician = self.magician(mi);
            let mp_before = magician.magic_power_now(&self.settings);
            let attempt = Attempt { again, gm_factor: order.gm_factor };
            let mut lockouts = SpellLockouts { failed: std::mem::take(&mut self.magic.magicians[mi].failed) };
            let mut event = LogEvent::new("magic", "cast", order.caster.as_str())
                .field("order", &order.name)
                .field("spell", order.spell.map_or("general", |s| s.id()))
                .field("attempt", again)
                .field("mp_before", mp_before);
            if let Some(t) = &order.target {
                event = event.field("target", t);
            }
            let (outcome, spent, fatigue, cast) = match order.spell {
                None => {
                    let ts = order.ts.unwrap_or(0);
                    event = event.field("ts", ts);
                    if lockouts.may_attempt(&name, self.day) {
                        let cast = cast_general(&magician, ts, attempt, &self.settings, &mut self.dice);
                        lockouts.note(&name, self.day, cast.outcome);
                        for r in cast.rolls() {
                            event = event.roll(r);
                        }
                        if cast.magic_power_spent > 0 {
                            event = event.house_rule("magic.general_cast_cost");
                        }
                        (cast.outcome, cast.magic_power_spent, cast.fatigue_cost, None)
                    } else {
                        (SpellOutcome::NotUntilAnotherDay, 0, 0, None)
                    }
                }
                Some(spell) => {
                    let (spell_order, e) = self.read_table(order, spell, at, event);
                    event = e;
                    let cast = attempt_spell(
                        &magician,
                        &spell_order,
                        attempt,
                        &name,
                        self.day,
                        &mut lockouts,
                        &self.settings,
                        &mut self.dice,
                    );
                    for r in cast.rolls() {
                        event = event.roll(r);
                    }
                    if cast.magic_power_spent > 0 {
                        event = event.house_rule("magic.listed_spell_cost");
                    }
                    if let Some(rank) = cast.gremlin_rank {
                        event = event.field("gremlin_rank", rank);
                    }
                    if let Some(depth) = cast.mesmerism {
                        event = event.field("mesmerism", depth.id()).field("prompt_days", cast.prompt_days);
                    }
                    (cast.outcome, cast.magic_power_spent, cast.fatigue_cost, Some((spell_order, cast)))
                }
            };
            let tries_again = outcome == SpellOutcome::MayTryAgain && again < order.attempts_again;
            if outcome == SpellOutcome::MayTryAgain && !tries_again {
                // A "0" not tried again has failed for the day.
                lockouts.record_failure(&name, self.day);
            }
            let entry = &mut self.magic.magicians[mi];
            entry.failed = lockouts.failed;
            let rolled = outcome != SpellOutcome::NotUntilAnotherDay && outcome != SpellOutcome::OutOfRange;
            if rolled && !self.cast_by.contains(&order.caster) {
                self.cast_by.push(order.caster.clone());
            }
            if fatigue > 0 {
                entry.fatigue_spent = entry.fatigue_spent.saturating_add(fatigue);
                if !self.fatigued.contains(&order.caster) {
                    self.fatigued.push(order.caster.clone());
                }
            }
            let mp_after = (mp_before - spent).max(0);
            if spent > 0 || entry.mp.is_some() {
                entry.mp = Some(mp_after);
            }
            event = event
                .outcome(outcome)
                .field("magic_power_spent", spent)
                .field("mp_after", mp_after)
                .field("fatigue_cost", fatigue);
            if outcome == SpellOutcome::MayTryAgain {
                event = event.field("tries_again", tries_again);
            }
            self.out.push(event);
            if tries_again {
                again += 1;
                continue;
            }
            if outcome == SpellOutcome::Succeeds
                && let Some((spell_order, cast)) = cast
            {
                self.take_effect(order, &spell_order, cast.gremlin_rank, cast.mesmerism, cast.prompt_days);
            }
            break;
        }
    }

    /// The listed spell's factors read off the table, each also written on the event.
    fn read_table(
        &self,
        order: &scene::CastOrder,
        spell: Spell,
        at: Vec2,
        mut event: LogEvent,
    ) -> (SpellOrder, LogEvent) {
        let reach = self.settings.presence_reach_in;
        let people = self.bodies.iter().filter(|b| b.position.distance(at) <= reach).count();
        let people_present = u32::try_from(people).unwrap_or(u32::MAX);
        let lighting = lighting_at(self.base, &self.lights, at);
        let people_event = |event: LogEvent| {
            let event = event.field("people_present", people_present).house_rule("magic.presence_reach_in");
            if people_present > 5 { event.house_rule("magic.people_beyond_five") } else { event }
        };
        let lighting_event = |event: LogEvent, ghost_row: bool| {
            let event = event.field("lighting", lighting.code());
            match (lighting, ghost_row) {
                (Lighting::Daylight, true) => event.house_rule("magic.ghost_rows_lll_factor"),
                (Lighting::Daylight, false) => event.house_rule("magic.gremlin_rows_lll_factor"),
                _ => event,
            }
        };
        let victim = |event: LogEvent| -> (VictimDistance, LogEvent) {
            let target = order.target.as_deref().unwrap_or_default();
            match self.body(target) {
                Some(v) => {
                    let d = v.position.distance(at);
                    let distance = if d <= reach { VictimDistance::Present } else { VictimDistance::Close };
                    let event = event
                        .field("victim", distance.id())
                        .field("victim_distance", round_to_thousandths(d))
                        .house_rule("magic.presence_reach_in");
                    (distance, event)
                }
                None => {
                    let distance = order.victim.unwrap_or(VictimDistance::Distant);
                    (distance, event.field("victim", distance.id()))
                }
            }
        };
        let spell_order = match spell {
            Spell::DryClothes => SpellOrder::DryClothes,
            Spell::SummonGhost => {
                event = lighting_event(people_event(event), true);
                SpellOrder::SummonGhost { people_present, lighting }
            }
            Spell::CallSuspectedGhost => {
                event = lighting_event(people_event(event), true);
                SpellOrder::CallSuspectedGhost { people_present, lighting }
            }
            Spell::RevealOccultPresence => {
                event = lighting_event(people_event(event), true);
                SpellOrder::RevealOccultPresence { people_present, lighting }
            }
            Spell::SummonSuspectedGremlin => {
                event = lighting_event(people_event(event), false);
                SpellOrder::SummonSuspectedGremlin { people_present, lighting }
            }
            Spell::SummonSuspectedDemon => {
                let named = order.target.as_deref().and_then(|t| self.beings.iter().find(|b| b.being.name == t));
                let demon_rank = named.and_then(|b| b.being.rank).or(order.demon_rank).unwrap_or(1);
                let silver_ward = self.magic.wards.iter().any(|w| {
                    w.kind == WardKind::Silver && self.ward_at(w).is_some_and(|p| p.distance(at) <= w.kind.radius_in())
                });
                event = lighting_event(people_event(event), false)
                    .field("demon_rank", demon_rank)
                    .field("silver_ward", silver_ward);
                SpellOrder::SummonSuspectedDemon { demon_rank, people_present, lighting, silver_ward }
            }
            Spell::LayGremlinCurse | Spell::LayEvilEyeCurse => {
                let (victim, e) = victim(event);
                event = lighting_event(e, false);
                if spell == Spell::LayGremlinCurse {
                    SpellOrder::LayGremlinCurse { victim, lighting }
                } else {
                    SpellOrder::LayEvilEyeCurse { victim, lighting }
                }
            }
            Spell::Mesmerise => {
                let target = order.target.as_deref().unwrap_or_default();
                let subject_at = self.body(target).map_or(at, |b| b.position);
                let others: Vec<&Body> = self
                    .bodies
                    .iter()
                    .filter(|b| b.name != order.caster && b.name != target && b.position.distance(at) <= reach)
                    .collect();
                let subject = MesmerSubject {
                    distance_in: subject_at.distance(at),
                    class: order.class.unwrap_or(0),
                    others_present: !others.is_empty(),
                    nearby_movement_or_noise: order.nearby_noise || others.iter().any(|b| b.moved),
                    nearby_fighting: order.nearby_fighting,
                    previously_mesmerised: self.magic.mesmerised.iter().any(|m| m.figure == target),
                };
                event = event
                    .field("distance", round_to_thousandths(subject.distance_in))
                    .field("others_present", subject.others_present)
                    .field("nearby_movement_or_noise", subject.nearby_movement_or_noise)
                    .field("previously_mesmerised", subject.previously_mesmerised)
                    .house_rule("magic.presence_reach_in");
                SpellOrder::Mesmerise(subject)
            }
        };
        (spell_order, event)
    }

    /// What a spell cast does on the table: beings revealed, a curse laid, a person mesmerised.
    fn take_effect(
        &mut self,
        order: &scene::CastOrder,
        spell_order: &SpellOrder,
        gremlin_rank: Option<u32>,
        mesmerism: Option<Mesmerism>,
        prompt_days: u32,
    ) {
        let target = order.target.as_deref();
        let reveal: Vec<usize> = (0..self.beings.len())
            .filter(|&i| {
                let b = &self.beings[i].being;
                !b.revealed
                    && match spell_order {
                        SpellOrder::SummonGhost { .. } => target == Some(b.name.as_str()),
                        SpellOrder::CallSuspectedGhost { .. } => b.kind == WardedBeing::Ghost,
                        SpellOrder::SummonSuspectedGremlin { .. } => b.kind == WardedBeing::Gremlin,
                        SpellOrder::SummonSuspectedDemon { demon_rank, .. } => match target {
                            Some(t) => b.name == t,
                            None => b.kind == WardedBeing::Demon && b.rank == Some(*demon_rank),
                        },
                        SpellOrder::RevealOccultPresence { .. } => b.kind != WardedBeing::Wolf,
                        _ => false,
                    }
            })
            .collect();
        for i in reveal {
            self.reveal(i, &order.caster, spell_order.spell());
        }
        match spell_order {
            SpellOrder::LayEvilEyeCurse { .. } | SpellOrder::LayGremlinCurse { .. } => {
                let Some(victim) = target else { return };
                let curse = if matches!(spell_order, SpellOrder::LayEvilEyeCurse { .. }) {
                    CurseKind::EvilEye
                } else {
                    CurseKind::Gremlin
                };
                let laid = scene::Curse {
                    victim: victim.to_string(),
                    curse,
                    by: order.caster.clone(),
                    day: self.day,
                    gremlin_rank: if curse == CurseKind::Gremlin { gremlin_rank } else { None },
                };
                match self.magic.curses.iter().position(|c| c.victim == victim && c.curse == curse) {
                    Some(i) => self.magic.curses[i] = laid.clone(),
                    None => self.magic.curses.push(laid.clone()),
                }
                let mut event = LogEvent::new("magic", "curse_laid", victim)
                    .outcome(MagicEventOutcome::CurseLaid)
                    .field("curse", curse.id())
                    .field("by", &order.caster)
                    .field("day", self.day);
                if let Some(rank) = laid.gremlin_rank {
                    event = event.field("gremlin_rank", rank);
                }
                if curse == CurseKind::EvilEye {
                    // "deducts 1 from every dice throw for character": from the next roll on.
                    event = event.field("effect", crate::rules::magic::EVIL_EYE_FACTOR);
                    if let Some(body) = self.bodies.iter_mut().find(|b| b.name == victim)
                        && !body.cursed
                    {
                        body.cursed = true;
                        self.newly_cursed.push(body.entity);
                    }
                }
                self.out.push(event);
            }
            SpellOrder::Mesmerise(_) => {
                let Some(figure) = target else { return };
                if mesmerism.is_none_or(|m| m == Mesmerism::NotMesmerised) {
                    return;
                }
                let entry = scene::Mesmerised {
                    figure: figure.to_string(),
                    by: order.caster.clone(),
                    day: self.day,
                    prompt_days,
                };
                match self.magic.mesmerised.iter().position(|m| m.figure == figure) {
                    Some(i) => self.magic.mesmerised[i] = entry,
                    None => self.magic.mesmerised.push(entry),
                }
            }
            _ => {}
        }
    }

    /// A being revealed: logged, and each figure within the presence reach of it dices
    /// against its fright, where the scene gives it one.
    fn reveal(&mut self, i: usize, by: &str, spell: Spell) {
        let being = &mut self.beings[i];
        being.being.revealed = true;
        being.changed = true;
        let name = being.being.name.clone();
        let kind = being.being.kind;
        let position = being.position;
        let fright_value = being.being.fright_value;
        self.out.push(
            LogEvent::new("magic", "revealed", name.as_str())
                .outcome(MagicEventOutcome::Revealed)
                .field("kind", kind.id())
                .field("by", by)
                .field("spell", spell.id())
                .field("position", point_to_thousandths(position)),
        );
        let Some(fv) = fright_value else { return };
        let reach = self.settings.presence_reach_in;
        let near: Vec<(String, bool, bool)> = self
            .bodies
            .iter()
            .filter(|b| b.position.distance(position) <= reach)
            .map(|b| (b.name.clone(), self.carries_ward(&b.name), b.cursed))
            .collect();
        for (figure, ward, cursed) in near {
            let roll = occult_fright_test(fv, ward, cursed, &self.settings, &mut self.dice);
            let mut event = LogEvent::new("magic", "occult_fright", figure.as_str())
                .outcome(roll.outcome)
                .field("being", name.as_str())
                .field("fright_value", fv)
                .field("ward_bonus", roll.ward_bonus)
                .house_rule("magic.occult_fright_test.dice")
                .house_rule("magic.occult_fright_test.target");
            for r in roll.rolls() {
                event = event.roll(r);
            }
            self.out.push(event);
        }
    }

    /// Step 3: Every ward, in scene order, dices for each being it names that has come within its
    /// reach, once an approach; a repelled being goes no nearer (its path is dropped).
    fn ward_checks(&mut self) {
        for ward in self.magic.wards.clone() {
            let Some(at) = self.ward_at(&ward) else { continue };
            for b in &mut self.beings {
                let kind = b.being.kind;
                if ward.kind.fright_value(kind).is_none() {
                    continue;
                }
                let distance = b.position.distance(at);
                let within = distance <= ward.kind.radius_in();
                let already = b.being.warded.iter().position(|w| *w == ward.name);
                match (within, already) {
                    (false, Some(i)) => {
                        // The approach is over: the ward dices again next time.
                        b.being.warded.remove(i);
                        b.changed = true;
                        continue;
                    }
                    (false, None) | (true, Some(_)) => continue,
                    (true, None) => {}
                }
                let result = ward_check(ward.kind, kind, distance, &self.settings, &mut self.dice);
                b.being.warded.push(ward.name.clone());
                b.changed = true;
                if result.outcome == WardOutcome::Repelled {
                    b.being.path.clear();
                }
                let mut event = LogEvent::new("magic", "ward_check", b.being.name.as_str())
                    .outcome(result.outcome)
                    .field("ward", ward.name.as_str())
                    .field("ward_kind", ward.kind.id())
                    .field("kind", kind.id())
                    .field("distance", round_to_thousandths(distance))
                    .field("radius", ward.kind.radius_in())
                    .field("revealed", b.being.revealed)
                    .house_rule("magic.ward_test.target");
                if ward.kind != WardKind::Silver {
                    event = event.house_rule("magic.ward_test.dice");
                }
                if let Some(fv) = result.fright_value {
                    event = event.field("fright_value", fv);
                }
                if let Some(by) = &ward.carried_by {
                    event = event.field("carried_by", by.as_str());
                }
                for r in result.rolls() {
                    event = event.roll(r);
                }
                self.out.push(event);
            }
        }
    }

    /// Step 4: "Magic Power is recovered at 1 per move not expending a fatigue point or 2 resting, up
    /// to Maximum Magic Power": each magician who cast nothing this move.
    fn recover(&mut self) {
        for i in 0..self.magic.magicians.len() {
            let magician = self.magician(i);
            let figure = self.magic.magicians[i].figure.clone();
            // Not on the table: neither walking nor running.
            let (moved, running) = self.body(&figure).map_or((false, false), |b| (b.moved, b.running));
            let now = magician.magic_power_now(&self.settings);
            if self.cast_by.contains(&figure) {
                // "After a spell has been cast": the move of the casting gives nothing back.
                if self.magic.magicians[i].mp.is_some_and(|mp| mp != now) {
                    self.magic.magicians[i].mp = Some(now);
                }
                continue;
            }
            let activity = if self.fatigued.contains(&figure) || running {
                MoveActivity::SpendsFatigue
            } else if !moved {
                MoveActivity::Resting
            } else {
                MoveActivity::NoFatigueSpent
            };
            let recovery = recover_magic_power(&magician, activity, &self.settings);
            let entry = &mut self.magic.magicians[i];
            if entry.mp.is_some() || recovery.after != recovery.maximum {
                entry.mp = Some(recovery.after);
            }
            if recovery.recovered > 0 {
                self.out.push(
                    LogEvent::new("magic", "magic_power", figure.as_str())
                        .outcome(MagicEventOutcome::Recovered)
                        .field("activity", activity.id())
                        .field("before", recovery.before)
                        .field("recovered", recovery.recovered)
                        .field("after", recovery.after)
                        .field("maximum", recovery.maximum),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_evil_eye_helper_takes_one_off_a_cursed_figures_roll_only() {
        let roll = Roll::from_faces(crate::rules::dice::Dice::D6, vec![4]).at_least(4);
        let mut cursed = roll.clone();
        assert!(evil_eye_on(&mut cursed, Some(&Cursed)));
        assert_eq!(cursed.total, 3);
        assert_eq!(cursed.passed(), Some(false));
        assert_eq!(cursed.modifiers.last().map(|m| m.reason.as_ref()), Some(crate::rules::magic::EVIL_EYE_REASON));
        let mut spared = roll.clone();
        assert!(!evil_eye_on(&mut spared, None));
        assert_eq!(spared, roll);
    }

    #[test]
    fn the_worst_wound_counts() {
        let c = |kind: ConditionKind| scene::Condition {
            name: kind.id().into(),
            kind,
            move_penalty: 0.0,
            moves_left: None,
            immobile: false,
            me_and_mo: 0,
            healing: None,
        };
        assert_eq!(wound_of(&[]), None);
        assert_eq!(wound_of(&[c(ConditionKind::FleshWounded)]), Some(WoundRecovery::FleshWounded));
        assert_eq!(
            wound_of(&[c(ConditionKind::FleshWounded), c(ConditionKind::SoreWounded), c(ConditionKind::Wounded)]),
            Some(WoundRecovery::SoreWounded)
        );
    }
}
