//! Traps in the scene file, and the trap settings of the `rules` block.
//!
//! Payloads, pit bottoms, safety locks, lifter actions and Khemri counter states are the rules
//! modules' own enums, so a scene names exactly what the rules read.

use super::format::Point;
use crate::rules::khemri_traps::{
    ComplexTrap, KhemriSettings, KhemriTrap, TrapPosition, TrapStatus, TrapsPerPlayer, check_trap_layout,
};
use crate::rules::morval_traps::{self as morval, LifterAction, MorvalTrapSettings, Payload, PitBottom, SafetyLock};
use serde::{Deserialize, Serialize};

fn is_false(b: &bool) -> bool {
    !*b
}
fn is_true(b: &bool) -> bool {
    *b
}
fn yes() -> bool {
    true
}
fn one_inch() -> i32 {
    1
}
fn lift_object() -> LifterAction {
    LifterAction::LiftObject
}
fn active() -> TrapStatus {
    TrapStatus::Active
}
fn is_active(s: &TrapStatus) -> bool {
    *s == TrapStatus::Active
}

/// Concealment class for spotting (000 "Triggering Traps").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Concealment {
    /// Loosely concealed.
    #[serde(rename = "LC")]
    Loose,
    /// Normally concealed.
    #[serde(rename = "NC")]
    Normal,
    /// Well concealed.
    #[serde(rename = "WC")]
    Well,
}

impl Concealment {
    /// The rules' class.
    pub fn rules(self) -> morval::Concealment {
        match self {
            Concealment::Loose => morval::Concealment::LooselyConcealed,
            Concealment::Normal => morval::Concealment::NormallyConcealed,
            Concealment::Well => morval::Concealment::WellConcealed,
        }
    }
}

/// What a trap is, with what each kind needs (docs/traps.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrapKind {
    /// 000 "Trip cords": a cord stretched from the trap's position to `to`.
    TripCord {
        /// The cord's far end.
        to: Point,
    },
    /// 000 "Treadle Traps": goes off under a creature stepping on it.
    Treadle {
        /// What it releases.
        payload: Payload,
        /// No device, a device friends work with its lever (`armed`), or locked safe.
        #[serde(default)]
        safety: SafetyLock,
        /// Works only under a creature heavier than this (figure `weight`); none: any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weight_above: Option<f32>,
    },
    /// 000 "Lifter Traps": "triggered when a weight ... is lifted upwards" (`lift_object`: it goes
    /// off where a figure's path ends on it, the figure stopping to lift the object); "Similar is
    /// the type triggered when a door or trapdoor is opened" (`open_door`, `open_trapdoor`: it
    /// goes off where a figure's path first enters it, the figure passing through).
    Lifter {
        /// What it releases.
        payload: Payload,
        /// What sets it off: lifting an object, opening a door or opening a trapdoor.
        #[serde(default = "lift_object")]
        action: LifterAction,
        /// The scene `doors` entry it is set on: its area is then the door's line, from `from`
        /// to `to`, and a figure passing through the door sets it off. Required for
        /// `open_door`; an `open_trapdoor` lifter without one covers its disc; none for
        /// `lift_object`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        door: Option<String>,
    },
    /// 000 "Specimen Pit Trap": a covered pit, `depth` whole inches (the specimen is 1").
    Pit {
        /// How deep, in whole inches, 1 to 100.
        #[serde(default = "one_inch")]
        depth: i32,
        /// What the faller lands on.
        bottom: PitBottom,
        /// Sprung once: the cover is gone and it is an open pit (house rule `table.open_pit`).
        #[serde(default, skip_serializing_if = "is_false")]
        open: bool,
    },
    /// 000 "Falling Traps": a floor or bridge that gives way once the weight on it reaches
    /// `gives_way_at` (none: under anyone), over a drop of `depth` inches.
    FallingFloor {
        /// How far the drop is, in whole inches, 1 to 100.
        #[serde(default = "one_inch")]
        depth: i32,
        /// What the faller lands on.
        bottom: PitBottom,
        /// The total weight on it at which it gives way; none: under anyone.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        gives_way_at: Option<f32>,
    },
    /// 000 "Loop Traps": a noose covering one square inch.
    Loop,
    /// 000 "Leydonic (Electric) Traps": strikes D10 + `strike`, then recharges for
    /// `recharge_moves` moves.
    Leydonic {
        /// Added to the D10 of its strike, −20 to 20.
        strike: i32,
        /// Moves it takes to recharge after a discharge.
        recharge_moves: u32,
        /// The move it last discharged in; none: charged since the start.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        discharged_at_move: Option<u32>,
    },
    /// 002 "Traps": a Khemri counter. `drawn: None` is dealt face down from the deck when the
    /// scene starts; the rest is its state in play.
    Khemri {
        /// Simple, complex or dud; none: dealt face down from the deck when the scene starts.
        #[serde(default)]
        drawn: Option<KhemriTrap>,
        /// Which complex trap, once the table has been rolled for it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        complex: Option<ComplexTrap>,
        /// Active, spent or disarmed.
        #[serde(default = "active", skip_serializing_if = "is_active")]
        status: TrapStatus,
        /// A Khemri pit's depth once it has opened.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pit_depth: Option<i32>,
        /// The counter lies in a narrow hall running this way (degrees): a boulder rolls 50/50
        /// along it. None: open ground, the boulder scatters.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hall: Option<f32>,
    },
}

impl TrapKind {
    /// The Morval kind, for concealment caps (None for Khemri counters).
    pub fn morval_kind(&self) -> Option<morval::TrapKind> {
        Some(match self {
            TrapKind::TripCord { .. } => morval::TrapKind::TripCord,
            TrapKind::Treadle { .. } => morval::TrapKind::Treadle,
            TrapKind::Lifter { .. } => morval::TrapKind::Lifter,
            TrapKind::Pit { .. } => morval::TrapKind::SpecimenPit,
            TrapKind::FallingFloor { .. } => morval::TrapKind::FallingFloor,
            TrapKind::Loop => morval::TrapKind::Loop,
            TrapKind::Leydonic { .. } => morval::TrapKind::Leydonic,
            TrapKind::Khemri { .. } => return None,
        })
    }

    /// A door or trapdoor lifter (000 "Lifter Traps": "triggered when a door or trapdoor is
    /// opened"): it goes off where a figure's path first enters its area, as the figure passes
    /// through, not where a path ends.
    pub fn lifter_on_passing(&self) -> bool {
        matches!(self, TrapKind::Lifter { action: LifterAction::OpenDoor | LifterAction::OpenTrapdoor, .. })
    }

    /// A short id for logs and the view.
    pub fn id(&self) -> &'static str {
        match self.morval_kind() {
            Some(k) => k.id(),
            None => "khemri",
        }
    }
}

/// A trap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trap {
    /// The trap's name, unique in the scene.
    pub name: String,
    /// What kind of trap, with what the kind needs.
    pub kind: TrapKind,
    /// Where the trap lies.
    pub position: Point,
    /// Half-width of the area it covers (a loop covers one square inch whatever this says).
    #[serde(default = "half_inch")]
    pub radius: f32,
    /// For spotting; none: the best the kind allows on a used route (000 "Triggering Traps").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concealment: Option<Concealment>,
    /// The side that set it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// It can go off; a once-only trap is disarmed when spent.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub armed: bool,
    /// It stays armed after it goes off (a silent alarm, a loop re-laid).
    #[serde(default, skip_serializing_if = "is_false")]
    pub reusable: bool,
    /// Known to the players (a Khemri counter: turned face up).
    #[serde(default, skip_serializing_if = "is_false")]
    pub revealed: bool,
    /// Written by the simulation: the figures within spotting range (2") of this Morval trap at
    /// the end of the last move, so a figure already there is not rolling for a new approach
    /// (`morval.spot_checks: per_approach`) when a saved scene runs on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub in_range_of: Vec<String>,
    /// Whether the projector shows it, whatever the automatic rules say: none (the default)
    /// leaves it to them, `Some(true)` always shows it, `Some(false)` never ([`players_see`](super::players_see)).
    /// The GM's toggle in the inspector.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub show_players: Option<bool>,
    /// A picture drawn on the trap's area, a disc `radius` round it: a PNG or WebP file beside
    /// the scene file or under `assets/` ([`super::pictures`]), shown to the players when its
    /// marker is; none: the marker only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
}

fn half_inch() -> f32 {
    0.5
}

impl Trap {
    /// The concealment spotting rolls against: the scene's, or the best the kind allows on a
    /// used route (000 "Triggering Traps": "commonly used routes would be NC at best").
    pub fn concealment_class(&self) -> Option<morval::Concealment> {
        let kind = self.kind.morval_kind()?;
        Some(self.concealment.map(Concealment::rules).unwrap_or_else(|| morval::best_concealment(kind, false)))
    }

    /// The checks the parser cannot make.
    pub(crate) fn check<'a>(&'a self, c: &mut super::load::Checker<'a>) {
        let e = c.name("trap", &self.name);
        c.on_table(&e, "position", self.position);
        c.positive(&e, "radius", self.radius, 12.0);
        c.picture(&e, self.picture.as_deref());
        if let (Some(kind), Some(given)) = (self.kind.morval_kind(), self.concealment) {
            let cap = kind.concealment_cap();
            if given.rules() > cap {
                c.problem(
                    &e,
                    format!(
                        "concealment: a {} can be no better than {} (000 \"Triggering Traps\"), not {}",
                        kind.id(),
                        cap.code(),
                        given.rules().code()
                    ),
                );
            }
        }
        let payload = |c: &mut super::load::Checker<'a>, p: &Payload| {
            if !(-20..=20).contains(&p.strike) {
                c.problem(&e, format!("kind payload strike: {} must be -20 to 20", p.strike));
            }
            if let Some(h) = p.heard_to_inches
                && !(0..=1000).contains(&h)
            {
                c.problem(&e, format!("kind payload heard_to_inches: {h} must be 0 to 1000"));
            }
        };
        let depth = |c: &mut super::load::Checker<'a>, d: i32| {
            if !(1..=100).contains(&d) {
                c.problem(&e, format!("kind depth: {d} must be 1 to 100 inches"));
            }
        };
        match &self.kind {
            TrapKind::TripCord { to } => c.on_table(&e, "kind to", *to),
            TrapKind::Treadle { payload: p, weight_above, .. } => {
                payload(c, p);
                if let Some(w) = weight_above
                    && c.finite(&e, "kind weight_above", *w)
                    && !(0.0..=10_000.0).contains(w)
                {
                    c.problem(&e, format!("kind weight_above: {w} must be 0 to 10000"));
                }
            }
            TrapKind::Lifter { payload: p, action, door } => {
                payload(c, p);
                match (action, door) {
                    (LifterAction::OpenDoor, None) => c.problem(
                        &e,
                        "kind door: an open_door lifter names the door it is set on (an entry of `doors`)".into(),
                    ),
                    (LifterAction::LiftObject, Some(d)) => c.problem(
                        &e,
                        format!("kind door: \"{d}\": only an open_door or open_trapdoor lifter is set on a door"),
                    ),
                    _ => {}
                }
            }
            TrapKind::Pit { depth: d, .. } => depth(c, *d),
            TrapKind::FallingFloor { depth: d, gives_way_at, .. } => {
                depth(c, *d);
                if let Some(w) = gives_way_at {
                    c.positive(&e, "kind gives_way_at", *w, 100_000.0);
                }
            }
            TrapKind::Loop => {}
            TrapKind::Leydonic { strike, recharge_moves, .. } => {
                if !(-20..=20).contains(strike) {
                    c.problem(&e, format!("kind strike: {strike} must be -20 to 20"));
                }
                if *recharge_moves > 100_000 {
                    c.problem(&e, format!("kind recharge_moves: {recharge_moves} must be at most 100000"));
                }
            }
            TrapKind::Khemri { drawn, complex, pit_depth, hall, .. } => {
                if complex.is_some() && *drawn != Some(KhemriTrap::Complex) {
                    c.problem(&e, "kind complex: only a counter drawn as complex has a complex trap".into());
                }
                if let Some(d) = pit_depth
                    && !(1..=6).contains(d)
                {
                    c.problem(&e, format!("kind pit_depth: {d} must be 1 to 6 (a D6)"));
                }
                if let Some(h) = hall {
                    c.finite(&e, "kind hall", *h);
                }
            }
        }
    }
}

/// 002 "Traps": "no trap can be 2" or closer to another one", over the scene's Khemri counters;
/// the problem names both traps.
pub(crate) fn check_khemri_spacing(traps: &[Trap], c: &mut super::load::Checker<'_>) {
    let counters: Vec<&Trap> = traps.iter().filter(|t| matches!(t.kind, TrapKind::Khemri { .. })).collect();
    let positions: Vec<TrapPosition> = counters
        .iter()
        .enumerate()
        .map(|(i, t)| TrapPosition { id: i as u32, x: f64::from(t.position.0), y: f64::from(t.position.1) })
        .collect();
    if let Err(err) = check_trap_layout(&positions) {
        let (placed, other) = (counters[err.placed as usize], counters[err.other as usize]);
        c.problem(
            &format!("trap \"{}\"", placed.name),
            format!(
                "position: {:.2}\" from trap \"{}\": no Khemri trap can be 2\" or closer to another (002 \"Traps\")",
                err.distance, other.name
            ),
        );
    }
}

/// A lifter set on a door (`kind lifter door`) names an entry of the scene's `doors`.
pub(crate) fn check_lifter_doors(traps: &[Trap], doors: &[super::format::Door], c: &mut super::load::Checker<'_>) {
    for t in traps {
        if let TrapKind::Lifter { door: Some(name), .. } = &t.kind
            && !doors.iter().any(|d| d.name == *name)
        {
            c.problem(
                &format!("trap \"{}\"", super::load::shown(&t.name)),
                format!("kind door: no door is named \"{}\"", super::load::shown(name)),
            );
        }
    }
}

/// How a figure that fell into a pit gets out (`rules.traps.table.pit_climb`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PitClimb {
    /// It stays in the pit (immobile) until the GM removes its condition.
    GmFrees,
    /// It is out after this many moves (its `in pit` condition lasts that long).
    AfterMoves(u32),
    /// House rule, Mordheim-style and not in the sources (002 "3-4 - Pit": "Models who find
    /// themselves still alive in the pit will also have to climb out", with no rule): each move
    /// it tests Initiative (D6 ≤ I; `default_initiative` without a Mordheim profile); passing,
    /// it is placed on the pit's edge nearest its next waypoint. The default.
    #[default]
    InitiativeTest,
}

/// House rules for traps on the table, where the texts say nothing about it (docs/traps.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TableTrapSettings {
    /// Weight of a figure with no `weight` of its own, for treadles and falling floors.
    pub figure_weight: f32,
    /// Spotting bonus for a tracker outdoors, or an engineer or thief in a building (000 names
    /// them, with no number).
    pub skill_spot_bonus: i32,
    /// Initiative for Khemri tests of a figure with no Mordheim profile.
    pub default_initiative: i32,
    /// Moves a figure hanging on a pit's edge stays there; none: until the GM frees it.
    pub hanging_moves: Option<u32>,
    /// Older scene files' setting, kept so they load: `Some(n)` reads as
    /// `pit_climb: after_moves(n)` and wins over `pit_climb`; none (the default) leaves
    /// `pit_climb` to decide.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_pit_moves: Option<u32>,
    /// House rule: how a figure in a pit gets out (default `initiative_test`; see [`PitClimb`]).
    pub pit_climb: PitClimb,
    /// Moves a trip-cord victim stays demoralised, dazed or fainted (fainted: unable to move).
    pub status_moves: u32,
    /// How wide a Khemri boulder's path is, in inches.
    pub boulder_width: f32,
    /// A figure with Spot/Disarm stops at an active counter it comes upon and tries to disarm it.
    pub disarm_counters: bool,
    /// House rule: the agility of a steed caught by a trip cord or a pit under its rider (000
    /// "Trip cords": "Riders whose Steeds fall"; 000 gives steeds no agility): 0.
    pub steed_agility: i32,
    /// House rule: what a revealed (spotted, or seen going off) trap does, per kind; the texts
    /// say nothing of a trap that has been seen.
    pub revealed: RevealedTraps,
    /// House rule: an open pit (a Morval pit once sprung, a spent Khemri pit with its depth)
    /// is walked round (`avoid`) or walked into (`fall_in`); 002 "3-4 - Pit": "there will be a
    /// pit ... in the tunnel", and 000's pit is "dug in open space": it stays a pit.
    pub open_pit: OpenPit,
    /// House rule: a figure that enters an open pit rolls the pit's entry roll first (Morval:
    /// the pit table, D10 − A + F; Khemri: an Initiative test). Default false: nothing hides
    /// an open pit, so it just falls in.
    pub open_pit_entry_roll: bool,
}

/// What figures do about a revealed trap of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevealedTrap {
    /// Stepped over or round with no roll: it does not go off.
    Harmless,
    /// An obstacle: paths go round it (a disc; a cord is stepped over, as `harmless`). A
    /// figure whose path still enters it (its waypoint is in it) sets it off as if unseen.
    Avoid,
    /// It goes off as if unseen (lifting the idol sets it off, seen or not).
    StillFires,
}

/// House rule: per kind, what a revealed trap does (docs/traps.md). The texts are silent; the
/// defaults: a spotted cord is stepped over, a spotted pit is walked round, a lifter still
/// fires (000 "Lifter Traps": lifting the idol sets it off), the rest are passed safely.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RevealedTraps {
    /// Trip cords: stepped over.
    pub trip_cord: RevealedTrap,
    /// Treadles: stepped round.
    pub treadle: RevealedTrap,
    /// Lifters: still fire when the object is lifted.
    pub lifter: RevealedTrap,
    /// Specimen pits: walked round.
    pub pit: RevealedTrap,
    /// Falling floors: stepped round.
    pub falling_floor: RevealedTrap,
    /// Loops: stepped round.
    #[serde(rename = "loop")]
    pub loop_trap: RevealedTrap,
    /// Leydonic traps: stepped round.
    pub leydonic: RevealedTrap,
}

impl Default for RevealedTraps {
    fn default() -> Self {
        Self {
            trip_cord: RevealedTrap::Harmless,
            treadle: RevealedTrap::Harmless,
            lifter: RevealedTrap::StillFires,
            pit: RevealedTrap::Avoid,
            falling_floor: RevealedTrap::Harmless,
            loop_trap: RevealedTrap::Harmless,
            leydonic: RevealedTrap::Harmless,
        }
    }
}

impl RevealedTraps {
    /// The setting for a Morval kind.
    pub fn of(&self, kind: morval::TrapKind) -> RevealedTrap {
        match kind {
            morval::TrapKind::TripCord => self.trip_cord,
            morval::TrapKind::Treadle => self.treadle,
            morval::TrapKind::Lifter => self.lifter,
            morval::TrapKind::SpecimenPit => self.pit,
            morval::TrapKind::FallingFloor => self.falling_floor,
            morval::TrapKind::Loop => self.loop_trap,
            morval::TrapKind::Leydonic => self.leydonic,
        }
    }
}

/// House rule: what figures do at an open pit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpenPit {
    /// Paths go round it; a figure stops at its edge if a wall blocks the way round.
    #[default]
    Avoid,
    /// Paths go straight on, and a figure that enters it falls in.
    FallIn,
}

impl TableTrapSettings {
    /// How a figure gets out of a pit: the older `in_pit_moves: Some(n)` as `after_moves(n)`,
    /// else `pit_climb`.
    pub fn pit_climb(&self) -> PitClimb {
        match self.in_pit_moves {
            Some(n) => PitClimb::AfterMoves(n),
            None => self.pit_climb,
        }
    }
}

impl Default for TableTrapSettings {
    fn default() -> Self {
        Self {
            figure_weight: 1.0,
            skill_spot_bonus: 1,
            default_initiative: 3,
            hanging_moves: Some(1),
            in_pit_moves: None,
            pit_climb: PitClimb::InitiativeTest,
            status_moves: 1,
            boulder_width: 1.0,
            disarm_counters: true,
            steed_agility: 0,
            revealed: RevealedTraps::default(),
            open_pit: OpenPit::Avoid,
            open_pit_entry_roll: false,
        }
    }
}

/// The `rules.traps` block: the Morval and Khemri rule settings and the table's house rules.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrapSettings {
    /// The Morval trap rules' settings (000).
    pub morval: MorvalTrapSettings,
    /// The Khemri trap rules' settings (002).
    pub khemri: KhemriSettings,
    /// House rules for traps on the table.
    pub table: TableTrapSettings,
}

impl TrapSettings {
    /// The checks the parser cannot make.
    pub(crate) fn check(&self, c: &mut super::load::Checker<'_>) {
        let e = "rules traps";
        let m = &self.morval;
        for (field, v) in [
            ("morval loosely_concealed_spot_target", m.loosely_concealed_spot_target),
            ("morval normally_concealed_spot_target", m.normally_concealed_spot_target),
            ("morval well_concealed_spot_target", m.well_concealed_spot_target),
        ] {
            if !(-20..=30).contains(&v) {
                c.problem(e, format!("{field}: {v} must be -20 to 30"));
            }
        }
        let r = &m.payload_radius;
        for (field, v) in [
            ("morval payload_radius hail_of_missiles", r.hail_of_missiles),
            ("morval payload_radius boulder", r.boulder),
            ("morval payload_radius gas", r.gas),
            ("morval payload_radius acid", r.acid),
            ("morval payload_radius flame", r.flame),
        ] {
            if c.finite(e, field, v) && !(0.0..=24.0).contains(&v) {
                c.problem(e, format!("{field}: {v} must be 0 to 24"));
            }
        }
        let k = &self.khemri;
        if !(1..=1000).contains(&k.deck_sets) {
            c.problem(e, format!("khemri deck_sets: {} must be 1 to 1000", k.deck_sets));
        }
        if !(1..=10).contains(&k.simple_trap_strength) {
            c.problem(e, format!("khemri simple_trap_strength: {} must be 1 to 10", k.simple_trap_strength));
        }
        if !(-100..=100).contains(&k.traps_modifier) {
            c.problem(e, format!("khemri traps_modifier: {} must be -100 to 100", k.traps_modifier));
        }
        if let TrapsPerPlayer::Fixed(n) = k.traps_per_player
            && n > 10_000
        {
            c.problem(e, format!("khemri traps_per_player: {n} must be at most 10000"));
        }
        let t = &self.table;
        if c.finite(e, "table figure_weight", t.figure_weight) && !(0.0..=10_000.0).contains(&t.figure_weight) {
            c.problem(e, format!("table figure_weight: {} must be 0 to 10000", t.figure_weight));
        }
        c.positive(e, "table boulder_width", t.boulder_width, 12.0);
        if !(-20..=20).contains(&t.steed_agility) {
            c.problem(e, format!("table steed_agility: {} must be -20 to 20", t.steed_agility));
        }
        if !(0..=10).contains(&t.default_initiative) {
            c.problem(e, format!("table default_initiative: {} must be 0 to 10", t.default_initiative));
        }
        let after = match t.pit_climb {
            PitClimb::AfterMoves(n) => Some(n),
            PitClimb::GmFrees | PitClimb::InitiativeTest => None,
        };
        for (field, v) in [
            ("table hanging_moves", t.hanging_moves),
            ("table in_pit_moves", t.in_pit_moves),
            ("table pit_climb after_moves", after),
        ] {
            if v.is_some_and(|v| v > 100_000) {
                c.problem(e, format!("{field}: must be at most 100000"));
            }
        }
        if t.status_moves > 100_000 {
            c.problem(e, "table status_moves: must be at most 100000".into());
        }
    }
}
