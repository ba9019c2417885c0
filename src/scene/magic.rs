//! Magic in the scene file: the magicians (their Maximum Magic Power, the Magic Power they have
//! now, whether tired, the spells failed today), the GM's spell orders, the wards carried or
//! placed, the occult beings on the table, and the curses and mesmerisms laid (001 "MAGIC!",
//! "Spell Casting", "Occult Wards", "Spells"). docs/magic.md "In a scene" says how the
//! simulation reads them.

use super::format::{Point, Scene};
use super::load::{Checker, MAX_MOVES_PLAYED, MAX_NAME_CHARS, MAX_POINTS, MAX_TABLE_INCHES, shown};
use crate::rules::magic::{
    DEMON_RANK_MAX, DEMON_RANK_MIN, FailedSpell, MagicSettings, Spell, VictimDistance, WardKind, WardedBeing,
};
use serde::{Deserialize, Serialize};

/// Most magicians in a scene.
pub const MAX_MAGICIANS: usize = 500;
/// Most spell orders in a scene.
pub const MAX_CAST_ORDERS: usize = 500;
/// Most wards in a scene: every ward is measured against every occult being each move.
pub const MAX_WARDS: usize = 500;
/// Most occult beings in a scene.
pub const MAX_OCCULT_BEINGS: usize = 500;
/// Most curses a scene may hold: one of each kind for each figure or order target.
pub const MAX_CURSES: usize = 2 * (super::load::MAX_FIGURES + MAX_CAST_ORDERS);
/// Largest Maximum Magic Power (and Magic Power) a magician may have.
pub const MAX_MAGIC_POWER: i32 = 50;
/// Largest target (TS, in MPUs) a general spell order may set.
pub const MAX_TARGET_MPU: i32 = 100;
/// Largest GM factor ("F") an order may add, either way.
pub const MAX_GM_FACTOR: i32 = 20;
/// Most attempts again after a 0 one order may make (each a fatigue point).
pub const MAX_ATTEMPTS_AGAIN: u32 = 5;
/// Largest class "as a number" of a person mesmerised, either way.
pub const MAX_CLASS: i32 = 20;
/// Largest fright value a scene may give an occult being.
pub const MAX_FRIGHT_VALUE: u8 = 10;
/// Longest name of a failed spell on a magician's list (a spell id and a ghost's name).
pub const MAX_LOCKOUT_CHARS: usize = 2 * MAX_NAME_CHARS;

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero_i32(v: &i32) -> bool {
    *v == 0
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

/// The magic of a scene: who has power, what is cast, the wards and the beings, and what has
/// been laid on whom.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MagicSection {
    /// The figures with magic powers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub magicians: Vec<MagicianEntry>,
    /// The GM's spell orders: who casts what, at whom, at which move.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spells: Vec<CastOrder>,
    /// Silver, garlic and wolf's bane, carried by a figure or placed at a point.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub wards: Vec<Ward>,
    /// Ghosts, gremlins, demons, werewolves, vampires and wolves on the table.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub beings: Vec<OccultBeing>,
    /// Curses laid (written by the simulation, or given by the GM).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub curses: Vec<Curse>,
    /// Persons mesmerised (written by the simulation, or given by the GM).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mesmerised: Vec<Mesmerised>,
}

impl MagicSection {
    /// Nothing magic in the scene: left out when saved.
    pub fn is_empty(&self) -> bool {
        self.magicians.is_empty()
            && self.spells.is_empty()
            && self.wards.is_empty()
            && self.beings.is_empty()
            && self.curses.is_empty()
            && self.mesmerised.is_empty()
    }

    /// Whether `figure` is under the evil eye.
    pub fn evil_eye_on(&self, figure: &str) -> bool {
        self.curses.iter().any(|c| c.curse == CurseKind::EvilEye && c.victim == figure)
    }

    /// The magician entry of `figure`, if it has one.
    pub fn magician(&self, figure: &str) -> Option<&MagicianEntry> {
        self.magicians.iter().find(|m| m.figure == figure)
    }
}

/// A figure with magic powers (001 "MAGIC!").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MagicianEntry {
    /// The figure's name.
    pub figure: String,
    /// "Maximum Magic Power (MMP)", fresh and unwounded: 0 to 50.
    pub mmp: i32,
    /// Magic Power now (0 to `mmp`); none: full (the MMP as reduced now). Written by the simulation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mp: Option<i32>,
    /// Tired: "reduced if the Magician is tired" (the GM's to say).
    #[serde(default, skip_serializing_if = "is_false")]
    pub tired: bool,
    /// Fatigue points spent on attempts again (written by the simulation).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub fatigue_spent: u32,
    /// The spells failed, with their day: "may not be attempted again until another day"
    /// (written by the simulation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<FailedSpell>,
}

/// A GM's spell order: at a move, a magician casts a listed spell, or a spell by the general
/// rule against a target (001 "Spell Casting", "Spells").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CastOrder {
    /// What the GM calls it; a general spell is "not attempted again until another day" by
    /// this name.
    pub name: String,
    /// The magician casting (a figure with a `magicians` entry).
    pub caster: String,
    /// The move it is cast in (1 is the first move played).
    pub at_move: u32,
    /// The listed spell; none: a spell by the general rule, against `ts`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spell: Option<Spell>,
    /// The general rule's "Target (TS) of Magic Power Units (MPUs)"; only without `spell`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ts: Option<i32>,
    /// Whom it is aimed at: the ghost summoned by name, the demon summoned, the curse's victim,
    /// the person mesmerised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// A curse's victim who is not a figure on the table: `close`, `within_a_league` or
    /// `distant` (a figure's distance is measured).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victim: Option<VictimDistance>,
    /// Summon a suspected Demon without a demon on the table: its rank, 1 to 6.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub demon_rank: Option<u8>,
    /// Mesmerise: the person's class as a number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<i32>,
    /// Mesmerise: "nearby movement or loud noise" the table does not show (the GM's word).
    #[serde(default, skip_serializing_if = "is_false")]
    pub nearby_noise: bool,
    /// Mesmerise: "nearby fighting" (the GM's word: the simulation has no melee).
    #[serde(default, skip_serializing_if = "is_false")]
    pub nearby_fighting: bool,
    /// "F": the GM's own factors.
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub gm_factor: i32,
    /// Attempts again after a "0" (each a fatigue point and −1 on the die), 0 to 5; a 0 not
    /// tried again has failed for the day.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub attempts_again: u32,
}

impl CastOrder {
    /// The name the spell is locked out by after a failure: a general spell's order name; a
    /// listed spell's id, with the ghost's name for "Summon a Ghost by name".
    pub fn lockout_name(&self) -> String {
        match (self.spell, &self.target) {
            (None, _) => self.name.clone(),
            (Some(Spell::SummonGhost), Some(ghost)) => format!("{} {ghost}", Spell::SummonGhost.id()),
            (Some(spell), _) => spell.id().to_string(),
        }
    }
}

/// A ward: silver crosses, crescents or stars of David; a clove of garlic; wolf's bane (001
/// "Occult Wards"). Carried by a figure, or placed at a point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ward {
    /// The ward's name, unique in the scene.
    pub name: String,
    /// Silver, garlic or wolf's bane.
    pub kind: WardKind,
    /// The figure carrying it; it wards where the figure stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carried_by: Option<String>,
    /// Where it lies, when no figure carries it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<Point>,
}

/// An occult being on the table (001 "Occult Wards" names ghosts, gremlins, demons, werewolves,
/// vampires and wolves). Hidden from the players until revealed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OccultBeing {
    /// The being's name, unique in the scene ("Summon a Ghost by name" names it).
    pub name: String,
    /// Ghost, gremlin, demon, werewolf, vampire or wolf.
    pub kind: WardedBeing,
    /// Where it is.
    pub position: Point,
    /// Waypoints it still walks, in order (a ghost passes through walls; the others stop at one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<Point>,
    /// Inches it walks a move along its path; needed with a path (the text gives none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_rate: Option<f32>,
    /// A demon's rank, 1 to 6 ("Rank of demon (1-6)"); only for a demon, and needed there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<u8>,
    /// The fright value a person dices against on meeting it (the sources give none; the
    /// scene's): none, no fright test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fright_value: Option<u8>,
    /// Revealed: the players see it (a summoning or Reveal Occult Presence, or the GM).
    #[serde(default, skip_serializing_if = "is_false")]
    pub revealed: bool,
    /// The wards it has been diced against while within their reach (written by the
    /// simulation): each once an approach.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warded: Vec<String>,
}

crate::rules::named_enum! {
    /// The two curses of 001 "Spells".
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum CurseKind {
        /// "Lay an evil eye Curse": −1 on every die the victim throws.
        EvilEye => "evil_eye",
        /// "Lay a Gremlin Curse": a Gremlin of the rank N − 5 plagues the victim.
        Gremlin => "gremlin",
    }
}

/// A curse laid on someone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Curse {
    /// The victim: a figure, or a spell order's target off the table.
    pub victim: String,
    /// Evil eye or Gremlin.
    pub curse: CurseKind,
    /// Who laid it.
    pub by: String,
    /// The day it was laid (day 0 holds moves 1 to `rules.moves_per_day`).
    #[serde(default)]
    pub day: u32,
    /// A Gremlin curse: the Gremlin's rank ("N-5 gives rank of the Gremlin").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gremlin_rank: Option<u32>,
}

/// A person mesmerised (001 "Spells", Mesmerise a person).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mesmerised {
    /// The figure mesmerised.
    pub figure: String,
    /// The magician who mesmerised it.
    pub by: String,
    /// The day it was mesmerised.
    #[serde(default)]
    pub day: u32,
    /// 10+: the days it will respond to the prompt; 0: it obeys immediate orders only (8+).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub prompt_days: u32,
}

/// The checks on `rules.magic`.
pub(crate) fn check_settings(settings: &MagicSettings, c: &mut Checker) {
    for (field, v) in [
        ("tired_reduction", settings.tired_reduction),
        ("flesh_wounded_reduction", settings.flesh_wounded_reduction),
        ("wounded_reduction", settings.wounded_reduction),
        ("sore_wounded_reduction", settings.sore_wounded_reduction),
    ] {
        if !(0..=MAX_MAGIC_POWER).contains(&v) {
            c.problem("rules", format!("magic {field}: {v} must be 0 to {MAX_MAGIC_POWER}"));
        }
    }
    for (field, v) in [
        ("ghost_rows_lll_factor", settings.ghost_rows_lll_factor),
        ("gremlin_rows_lll_factor", settings.gremlin_rows_lll_factor),
    ] {
        if !(-10..=10).contains(&v) {
            c.problem("rules", format!("magic {field}: {v} must be -10 to 10"));
        }
    }
    for (field, test) in [("ward_test", settings.ward_test), ("occult_fright_test", settings.occult_fright_test)] {
        if !(-20..=20).contains(&test.target) {
            c.problem("rules", format!("magic {field} target: {} must be -20 to 20", test.target));
        }
    }
    let reach = settings.presence_reach_in;
    if c.finite("rules", "magic presence_reach_in", reach) && !(reach > 0.0 && reach <= MAX_TABLE_INCHES) {
        c.problem(
            "rules",
            format!("magic presence_reach_in: {reach} must be more than 0 and at most {MAX_TABLE_INCHES} inches"),
        );
    }
}

/// The checks on the scene's `magic` section: counts, names, references and bounds.
pub(crate) fn check_scene<'a>(scene: &'a Scene, c: &mut Checker<'a>) {
    check_settings(&scene.rules.magic, c);
    let m = &scene.magic;
    for (field, len, max) in [
        ("magicians", m.magicians.len(), MAX_MAGICIANS),
        ("spells", m.spells.len(), MAX_CAST_ORDERS),
        ("wards", m.wards.len(), MAX_WARDS),
        ("beings", m.beings.len(), MAX_OCCULT_BEINGS),
        ("curses", m.curses.len(), MAX_CURSES),
        ("mesmerised", m.mesmerised.len(), super::load::MAX_FIGURES),
    ] {
        if len > max {
            c.problem("scene", format!("magic {field}: {len} entries, more than the {max} allowed"));
            return;
        }
    }
    let is_figure = |name: &str| scene.figures.iter().any(|f| f.name == name);
    for (i, mage) in m.magicians.iter().enumerate() {
        let e = format!("magician \"{}\"", shown(&mage.figure));
        if !is_figure(&mage.figure) {
            c.problem(&e, format!("figure: no figure is named \"{}\"", shown(&mage.figure)));
        } else if m.magicians[..i].iter().any(|o| o.figure == mage.figure) {
            c.problem(&e, "figure: listed twice among the magicians".into());
        }
        if !(0..=MAX_MAGIC_POWER).contains(&mage.mmp) {
            c.problem(&e, format!("mmp: {} must be 0 to {MAX_MAGIC_POWER}", mage.mmp));
        }
        if let Some(mp) = mage.mp
            && !(0..=mage.mmp.max(0)).contains(&mp)
        {
            c.problem(&e, format!("mp: {mp} must be 0 to the mmp ({})", mage.mmp));
        }
        if mage.fatigue_spent > MAX_MOVES_PLAYED {
            c.problem(&e, format!("fatigue_spent: {} is more than {MAX_MOVES_PLAYED}", mage.fatigue_spent));
        }
        if mage.failed.len() > MAX_CAST_ORDERS {
            c.problem(&e, format!("failed: {} entries, more than {MAX_CAST_ORDERS}", mage.failed.len()));
        }
        for f in &mage.failed {
            if f.spell.trim().is_empty() || f.spell.chars().count() > MAX_LOCKOUT_CHARS {
                c.problem(&e, format!("failed spell: must be 1 to {MAX_LOCKOUT_CHARS} characters"));
            }
            if f.day > MAX_MOVES_PLAYED {
                c.problem(&e, format!("failed \"{}\" day: {} is more than {MAX_MOVES_PLAYED}", shown(&f.spell), f.day));
            }
        }
    }
    for w in &m.wards {
        let e = c.name("ward", &w.name);
        match (&w.carried_by, w.position) {
            (Some(by), None) => {
                if !is_figure(by) {
                    c.problem(&e, format!("carried_by: no figure is named \"{}\"", shown(by)));
                }
            }
            (None, Some(p)) => c.on_table(&e, "position", p),
            _ => c.problem(&e, "needs either carried_by or position, not both".into()),
        }
    }
    for b in &m.beings {
        let e = c.name("occult being", &b.name);
        c.on_table(&e, "position", b.position);
        c.points(&e, "path", &b.path, 0);
        match b.move_rate {
            Some(rate) if c.finite(&e, "move_rate", rate) && !(0.0..=100.0).contains(&rate) => {
                c.problem(&e, format!("move_rate: {rate} must be 0 to 100 inches"));
            }
            Some(_) => {}
            None if !b.path.is_empty() => c.problem(&e, "move_rate: needed with a path".into()),
            None => {}
        }
        match (b.kind, b.rank) {
            (WardedBeing::Demon, None) => c.problem(&e, "rank: a demon needs its rank, 1 to 6".into()),
            (WardedBeing::Demon, Some(r)) if !(DEMON_RANK_MIN..=DEMON_RANK_MAX).contains(&r) => {
                c.problem(&e, format!("rank: {r} must be {DEMON_RANK_MIN} to {DEMON_RANK_MAX}"))
            }
            (WardedBeing::Demon, Some(_)) | (_, None) => {}
            (kind, Some(_)) => c.problem(&e, format!("rank: only a demon has a rank, not a {}", kind.id())),
        }
        if let Some(fv) = b.fright_value
            && fv > MAX_FRIGHT_VALUE
        {
            c.problem(&e, format!("fright_value: {fv} must be 0 to {MAX_FRIGHT_VALUE}"));
        }
        if b.warded.len() > m.wards.len() {
            c.problem(&e, format!("warded: {} entries, more than the scene's {} wards", b.warded.len(), m.wards.len()));
        }
        for (i, w) in b.warded.iter().enumerate() {
            if !m.wards.iter().any(|x| x.name == *w) {
                c.problem(&e, format!("warded[{i}]: no ward is named \"{}\"", shown(w)));
            }
        }
    }
    if b_points(m) > MAX_POINTS {
        c.problem("scene", format!("magic beings: {} path points in all, more than {MAX_POINTS}", b_points(m)));
    }
    for o in &m.spells {
        o.check(scene, c);
    }
    let target_of_order = |name: &str| m.spells.iter().any(|o| o.target.as_deref() == Some(name));
    for (i, curse) in m.curses.iter().enumerate() {
        let e = format!("curse \"{}\"", shown(&curse.victim));
        if !is_figure(&curse.victim) && !target_of_order(&curse.victim) {
            let victim = shown(&curse.victim);
            c.problem(&e, format!("victim: \"{victim}\" is neither a figure nor a spell order's target"));
        }
        if m.curses[..i].iter().any(|o| o.victim == curse.victim && o.curse == curse.curse) {
            c.problem(&e, format!("curse: a {} curse on the same victim is listed twice", curse.curse.id()));
        }
        if curse.by.trim().is_empty() || curse.by.chars().count() > MAX_NAME_CHARS {
            c.problem(&e, format!("by: must be 1 to {MAX_NAME_CHARS} characters"));
        }
        if curse.day > MAX_MOVES_PLAYED {
            c.problem(&e, format!("day: {} is more than {MAX_MOVES_PLAYED}", curse.day));
        }
        match (curse.curse, curse.gremlin_rank) {
            (CurseKind::Gremlin, None) => c.problem(&e, "gremlin_rank: a Gremlin curse needs the rank".into()),
            (CurseKind::Gremlin, Some(r)) if !(1..=100).contains(&r) => {
                c.problem(&e, format!("gremlin_rank: {r} must be 1 to 100"))
            }
            (CurseKind::EvilEye, Some(_)) => c.problem(&e, "gremlin_rank: only for a Gremlin curse".into()),
            _ => {}
        }
    }
    for (i, mes) in m.mesmerised.iter().enumerate() {
        let e = format!("mesmerised \"{}\"", shown(&mes.figure));
        if !is_figure(&mes.figure) {
            c.problem(&e, format!("figure: no figure is named \"{}\"", shown(&mes.figure)));
        } else if m.mesmerised[..i].iter().any(|o| o.figure == mes.figure) {
            c.problem(&e, "figure: listed twice".into());
        }
        if mes.by.trim().is_empty() || mes.by.chars().count() > MAX_NAME_CHARS {
            c.problem(&e, format!("by: must be 1 to {MAX_NAME_CHARS} characters"));
        }
        if mes.day > MAX_MOVES_PLAYED || mes.prompt_days > MAX_MOVES_PLAYED {
            c.problem(&e, format!("day and prompt_days: at most {MAX_MOVES_PLAYED}"));
        }
    }
}

/// Path points of every being together.
fn b_points(m: &MagicSection) -> usize {
    m.beings.iter().map(|b| b.path.len()).sum()
}

impl CastOrder {
    /// The checks the parser cannot make: the caster is a magician, the move one a scene may
    /// play, and each spell has what it reads (and nothing it does not).
    fn check(&self, scene: &Scene, c: &mut Checker) {
        let e = format!("spell order \"{}\"", shown(&self.name));
        if self.name.trim().is_empty() {
            c.problem("spell order (unnamed)", "name: must not be empty".into());
        } else if self.name.chars().count() > MAX_NAME_CHARS {
            c.problem(&e, format!("name: longer than {MAX_NAME_CHARS} characters"));
        }
        if scene.magic.magician(&self.caster).is_none() {
            c.problem(&e, format!("caster: no magician is named \"{}\"", shown(&self.caster)));
        }
        if !(1..=MAX_MOVES_PLAYED).contains(&self.at_move) {
            c.problem(&e, format!("at_move: {} must be 1 to {MAX_MOVES_PLAYED}", self.at_move));
        }
        if self.gm_factor.abs() > MAX_GM_FACTOR {
            c.problem(&e, format!("gm_factor: {} must be -{MAX_GM_FACTOR} to {MAX_GM_FACTOR}", self.gm_factor));
        }
        if self.attempts_again > MAX_ATTEMPTS_AGAIN {
            c.problem(&e, format!("attempts_again: {} must be 0 to {MAX_ATTEMPTS_AGAIN}", self.attempts_again));
        }
        if let Some(t) = &self.target
            && (t.trim().is_empty() || t.chars().count() > MAX_NAME_CHARS)
        {
            c.problem(&e, format!("target: must be 1 to {MAX_NAME_CHARS} characters"));
        }
        let figure = |name: &str| scene.figures.iter().any(|f| f.name == name);
        let being = |name: &str| scene.magic.beings.iter().find(|b| b.name == name);
        let mut unused: Vec<&str> = Vec::new();
        let spell = match self.spell {
            None => {
                match self.ts {
                    None => c.problem(&e, "ts: a spell by the general rule needs its target in MPUs".into()),
                    Some(ts) if !(0..=MAX_TARGET_MPU).contains(&ts) => {
                        c.problem(&e, format!("ts: {ts} must be 0 to {MAX_TARGET_MPU}"))
                    }
                    Some(_) => {}
                }
                unused.extend(["victim", "demon_rank", "class"].iter().copied().filter(|f| self.has(f)));
                None
            }
            Some(spell) => {
                if self.ts.is_some() {
                    unused.push("ts");
                }
                Some(spell)
            }
        };
        match spell {
            None => {}
            Some(Spell::SummonGhost) => match self.target.as_deref() {
                None => c.problem(&e, "target: Summon a Ghost by name needs the ghost's name".into()),
                Some(t) => match being(t) {
                    Some(b) if b.kind == WardedBeing::Ghost => {}
                    _ => c.problem(&e, format!("target: no ghost is named \"{}\"", shown(t))),
                },
            },
            Some(Spell::SummonSuspectedDemon) => match (self.target.as_deref(), self.demon_rank) {
                (Some(t), None) => match being(t) {
                    Some(b) if b.kind == WardedBeing::Demon => {}
                    _ => c.problem(&e, format!("target: no demon is named \"{}\"", shown(t))),
                },
                (None, Some(r)) if !(DEMON_RANK_MIN..=DEMON_RANK_MAX).contains(&r) => {
                    c.problem(&e, format!("demon_rank: {r} must be {DEMON_RANK_MIN} to {DEMON_RANK_MAX}"))
                }
                (None, Some(_)) => {}
                _ => c.problem(&e, "target or demon_rank: one of them, the demon on the table or its rank".into()),
            },
            Some(Spell::LayGremlinCurse | Spell::LayEvilEyeCurse) => match self.target.as_deref() {
                None => c.problem(&e, "target: a curse needs its victim".into()),
                Some(t) if figure(t) => {
                    if self.victim.is_some() {
                        let why = "victim: a figure's distance is measured; give it only for a victim off the table";
                        c.problem(&e, why.into());
                    }
                }
                Some(_) => match self.victim {
                    None | Some(VictimDistance::Present) => c.problem(
                        &e,
                        "victim: a victim who is not a figure is close, within_a_league or distant".into(),
                    ),
                    Some(_) => {}
                },
            },
            Some(Spell::Mesmerise) => {
                match self.target.as_deref() {
                    Some(t) if figure(t) => {
                        if t == self.caster {
                            c.problem(&e, "target: a magician cannot mesmerise himself".into());
                        }
                    }
                    Some(t) => c.problem(&e, format!("target: no figure is named \"{}\"", shown(t))),
                    None => c.problem(&e, "target: Mesmerise needs the person".into()),
                }
                match self.class {
                    None => c.problem(&e, "class: Mesmerise needs the person's class as a number".into()),
                    Some(k) if k.abs() > MAX_CLASS => {
                        c.problem(&e, format!("class: {k} must be -{MAX_CLASS} to {MAX_CLASS}"))
                    }
                    Some(_) => {}
                }
            }
            Some(_) if self.target.is_some() => unused.push("target"),
            Some(_) => {}
        }
        if let Some(s) = spell {
            for f in ["victim", "demon_rank", "class", "nearby_noise", "nearby_fighting"] {
                let reads = match f {
                    "victim" => matches!(s, Spell::LayGremlinCurse | Spell::LayEvilEyeCurse),
                    "demon_rank" => s == Spell::SummonSuspectedDemon,
                    _ => s == Spell::Mesmerise,
                };
                if !reads && self.has(f) {
                    unused.push(f);
                }
            }
        } else if self.nearby_noise || self.nearby_fighting {
            unused.push("nearby_noise or nearby_fighting");
        }
        for f in unused {
            let what = self.spell.map_or("a spell by the general rule", |s| s.label());
            c.problem(&e, format!("{f}: {what} does not read it"));
        }
    }

    /// Whether the optional field `f` is given.
    fn has(&self, f: &str) -> bool {
        match f {
            "victim" => self.victim.is_some(),
            "demon_rank" => self.demon_rank.is_some(),
            "class" => self.class.is_some(),
            "nearby_noise" => self.nearby_noise,
            "nearby_fighting" => self.nearby_fighting,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::load::validate;
    use crate::scene::{Scene, scene_to_ron};

    fn scene(magic: &str) -> Scene {
        let text = format!(
            "(version: 1, table: (width: 40, height: 20), lighting: \"D/L\",
              figures: [(name: \"Mage\", position: (5, 5)), (name: \"Ann\", position: (7, 5))],
              magic: ({magic}))"
        );
        let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        match options.from_str(&text) {
            Ok(s) => s,
            Err(e) => panic!("{e}: {text}"),
        }
    }

    fn problems(s: &Scene) -> Vec<String> {
        validate(s).into_iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn a_valid_section_has_no_problems_and_round_trips() {
        let s = scene(
            "magicians: [(figure: \"Mage\", mmp: 4, mp: 2, tired: true, failed: [(spell: \"dry_clothes\", day: 0)])],
             spells: [(name: \"call\", caster: \"Mage\", at_move: 2, spell: summon_ghost, target: \"Lady\"),
                      (name: \"light\", caster: \"Mage\", at_move: 3, ts: 5, attempts_again: 1),
                      (name: \"eye\", caster: \"Mage\", at_move: 4, spell: lay_evil_eye_curse, target: \"Ann\"),
                      (name: \"far\", caster: \"Mage\", at_move: 4, spell: lay_gremlin_curse, target: \"Burgomaster\", victim: distant)],
             wards: [(name: \"cross\", kind: silver, carried_by: \"Ann\"), (name: \"bane\", kind: wolfs_bane, position: (20, 10))],
             beings: [(name: \"Lady\", kind: ghost, position: (6, 6), fright_value: 2),
                      (name: \"Wolfie\", kind: werewolf, position: (30, 10), path: [(22, 10)], move_rate: 6)],
             curses: [(victim: \"Ann\", curse: evil_eye, by: \"Mage\")],
             mesmerised: [(figure: \"Ann\", by: \"Mage\", day: 0, prompt_days: 2)]",
        );
        assert_eq!(problems(&s), Vec::<String>::new());
        assert!(s.magic.evil_eye_on("Ann"));
        let text = scene_to_ron(&s).expect("saves");
        let again: Scene = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str(&text)
            .expect("loads");
        assert_eq!(again, s);
    }

    #[test]
    fn errors_name_the_entry_and_field() {
        let s = scene(
            "magicians: [(figure: \"Nobody\", mmp: 99), (figure: \"Mage\", mmp: 3, mp: 4)],
             spells: [(name: \"x\", caster: \"Ann\", at_move: 0, spell: summon_ghost, target: \"Wolfie\"),
                      (name: \"y\", caster: \"Mage\", at_move: 1),
                      (name: \"z\", caster: \"Mage\", at_move: 1, spell: mesmerise, target: \"Ann\"),
                      (name: \"w\", caster: \"Mage\", at_move: 1, spell: dry_clothes, class: 2)],
             wards: [(name: \"cross\", kind: silver), (name: \"clove\", kind: garlic, carried_by: \"Nobody\")],
             beings: [(name: \"Wolfie\", kind: werewolf, position: (50, 10), path: [(22, 10)], rank: 2),
                      (name: \"Azazel\", kind: demon, position: (10, 10))],
             curses: [(victim: \"Stranger\", curse: gremlin, by: \"Mage\")]",
        );
        let p = problems(&s);
        for expected in [
            "magician \"Nobody\": figure",
            "magician \"Nobody\": mmp",
            "magician \"Mage\": mp",
            "spell order \"x\": caster",
            "spell order \"x\": at_move",
            "spell order \"x\": target",
            "spell order \"y\": ts",
            "spell order \"z\": class",
            "spell order \"w\": class",
            "ward \"cross\": needs either",
            "ward \"clove\": carried_by",
            "occult being \"Wolfie\": position",
            "occult being \"Wolfie\": move_rate",
            "occult being \"Wolfie\": rank",
            "occult being \"Azazel\": rank",
            "curse \"Stranger\": victim",
            "curse \"Stranger\": gremlin_rank",
        ] {
            assert!(p.iter().any(|m| m.starts_with(expected)), "{expected}: {p:?}");
        }
    }

    #[test]
    fn magic_settings_are_checked() {
        let mut s = scene("");
        s.rules.magic.presence_reach_in = 0.0;
        s.rules.magic.tired_reduction = -1;
        let p = problems(&s);
        assert!(p.iter().any(|m| m.starts_with("rules: magic presence_reach_in")), "{p:?}");
        assert!(p.iter().any(|m| m.starts_with("rules: magic tired_reduction")), "{p:?}");
    }
}
