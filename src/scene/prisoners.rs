//! Prisoners, guards and berserkers in the scene file: who is bound and how, a prisoner's rank,
//! who guards whom, a berserker's rage, fatigue, and where a runaway stands (000 "Guarding
//! prisoners", "Catching, runaways, and overpowering", "Berserking"). docs/prisoners.md "In a
//! scene" says how the simulation reads them.

use super::format::{Point, Scene};
use super::load::{Checker, MAX_MOVES_PLAYED, shown};
use crate::rules::prisoners::{BerserkState, Bonds};
use serde::{Deserialize, Serialize};

/// Most prisoners one guard may list.
pub const MAX_GUARDED: usize = 100;
/// Most sides of an escort's way a guard may give as blocked.
pub const MAX_SIDES_BLOCKED: u8 = 4;
/// Most fatigue points a figure may carry.
pub const MAX_FATIGUE: u32 = 1_000;
/// Largest exhaustion point a berserker may be given (and `rules.prisoners.berserk_exhaustion_point`).
pub const MAX_EXHAUSTION_POINT: u32 = 1_000;
/// Most loosenings a prisoner's bonds may carry.
pub const MAX_LOOSENINGS: u32 = 100;
/// Most rounds of struggle a caught runaway may have behind him.
pub const MAX_STRUGGLE_ROUNDS: u32 = 100_000;
/// Largest basic Me factor (`melee_factor`), either way.
pub const MAX_MELEE_FACTOR: i32 = 10;
/// Most fatigue points a move of rage may cost (`rules.prisoners.rage_fatigue_per_move`).
pub const MAX_RAGE_FATIGUE_PER_MOVE: u32 = 100;

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero_u8(v: &u8) -> bool {
    *v == 0
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

/// Whether a figure's bonds are none (the default, left out when saved).
pub(crate) fn is_unbound(b: &Bonds) -> bool {
    *b == Bonds::NONE
}

/// A guard's role: the prisoners he escorts (000 "Guarding prisoners").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuardRole {
    /// The prisoners he guards, by figure name: each bound, or of another side. Guards who
    /// share a prisoner make one escort.
    pub prisoners: Vec<String>,
    /// An expert guard or turnkey: "+ 2 to these totals" (5 men or 7 women).
    #[serde(default, skip_serializing_if = "is_false")]
    pub expert: bool,
    /// Sides of the escort's way blocked by a physical feature (a river, a wall), 0 to 4:
    /// "One side blocked by physical feature +1". An escort takes the most any of its guards gives.
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub sides_blocked: u8,
}

/// A berserker (000 "Berserking").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BerserkerSheet {
    /// "A warrior trained to go berserk" (default true); an untrained one never rages.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub trained: bool,
    /// The move (1 is the first played) from which he builds his rage while calm; none: he
    /// stays calm.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub begin_rage: Option<u32>,
    /// Fatigue points at which he collapses exhausted; none: the house rule
    /// `rules.prisoners.berserk_exhaustion_point`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exhaustion_point: Option<u32>,
    /// Calm, raging or collapsed (written by the simulation).
    #[serde(default, skip_serializing_if = "is_calm")]
    pub state: BerserkState,
}

fn is_calm(s: &BerserkState) -> bool {
    *s == BerserkState::Calm
}

crate::rules::named_enum! {
    /// Where a runaway stands.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum RunStatus {
        /// Running for the table edge or his refuge.
        #[default]
        Fugitive => "fugitive",
        /// Caught: the struggle goes on until the guard gains control.
        Caught => "caught",
        /// Off the table (or at his refuge): out of play.
        Escaped => "escaped",
    }
}

/// A prisoner on the run (written by the simulation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Runaway {
    /// Fugitive, caught or escaped.
    #[serde(default)]
    pub status: RunStatus,
    /// Where he runs for: his refuge, or the nearest table edge.
    pub toward: Point,
    /// The guard running him down, once one is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pursued_by: Option<String>,
    /// Caught and knocked down (−2 while down in the struggle).
    #[serde(default, skip_serializing_if = "is_false")]
    pub knocked_down: bool,
    /// Rounds of struggle rolled since the catch.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub struggle_rounds: u32,
}

/// Where a prisoner stands with his bonds and escapes (written by the simulation).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PrisonerState {
    /// Loosenings worked so far ("Each loosening +1").
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub loosenings: u32,
    /// He has given up on these bonds ("too secure").
    #[serde(skip_serializing_if = "is_false")]
    pub given_up: bool,
    /// The move he last ran off in ("prisoner just run").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_ran_at: Option<u32>,
    /// On the run: fugitive, caught or escaped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<Runaway>,
}

impl PrisonerState {
    /// Nothing to write.
    pub fn is_empty(&self) -> bool {
        *self == PrisonerState::default()
    }

    /// Whether he is off the table.
    pub fn escaped(&self) -> bool {
        self.run.as_ref().is_some_and(|r| r.status == RunStatus::Escaped)
    }
}

impl super::format::Figure {
    /// A prisoner: bound, or given a prisoner's rank.
    pub fn is_prisoner(&self) -> bool {
        !is_unbound(&self.bound) || self.prisoner_rank.is_some()
    }
}

/// The checks on the prisoners, guards, berserkers and the `rules.prisoners` settings.
pub(crate) fn check_scene(scene: &Scene, c: &mut Checker) {
    let s = &scene.rules.prisoners;
    let reach = s.supervision_reach_in;
    if c.finite("rules", "prisoners supervision_reach_in", reach)
        && !(0.0..=super::load::MAX_TABLE_INCHES).contains(&reach)
    {
        c.problem(
            "rules",
            format!("prisoners supervision_reach_in: {reach} must be 0 to {} inches", super::load::MAX_TABLE_INCHES),
        );
    }
    if !(1..=MAX_EXHAUSTION_POINT).contains(&s.berserk_exhaustion_point) {
        c.problem(
            "rules",
            format!(
                "prisoners berserk_exhaustion_point: {} must be 1 to {MAX_EXHAUSTION_POINT}",
                s.berserk_exhaustion_point
            ),
        );
    }
    if s.rage_fatigue_per_move > MAX_RAGE_FATIGUE_PER_MOVE {
        c.problem(
            "rules",
            format!(
                "prisoners rage_fatigue_per_move: {} must be 0 to {MAX_RAGE_FATIGUE_PER_MOVE}",
                s.rage_fatigue_per_move
            ),
        );
    }
    let figure = |name: &str| scene.figures.iter().find(|f| f.name == name);
    for f in &scene.figures {
        // Formatted only for a problem: most figures have none.
        let e = || format!("figure \"{}\"", shown(&f.name));
        if f.melee_factor.abs() > MAX_MELEE_FACTOR {
            c.problem(
                &e(),
                format!("melee_factor: {} must be -{MAX_MELEE_FACTOR} to {MAX_MELEE_FACTOR}", f.melee_factor),
            );
        }
        if f.fatigue > MAX_FATIGUE {
            c.problem(&e(), format!("fatigue: {} is more than {MAX_FATIGUE}", f.fatigue));
        }
        if let Some(refuge) = f.refuge {
            c.on_table(&e(), "refuge", refuge);
            if !f.is_prisoner() {
                c.problem(&e(), "refuge: only a prisoner (bound, or with a prisoner_rank) runs for a refuge".into());
            }
        }
        if let Some(g) = &f.guard {
            if f.is_prisoner() {
                c.problem(&e(), "guard: a prisoner cannot guard".into());
            }
            if g.prisoners.is_empty() || g.prisoners.len() > MAX_GUARDED {
                c.problem(&e(), format!("guard prisoners: {} must be 1 to {MAX_GUARDED}", g.prisoners.len()));
            } else {
                for (i, name) in g.prisoners.iter().enumerate() {
                    match figure(name) {
                        None => {
                            c.problem(&e(), format!("guard prisoners[{i}]: no figure is named \"{}\"", shown(name)))
                        }
                        Some(p) if p.name == f.name => {
                            c.problem(&e(), format!("guard prisoners[{i}]: \"{}\" cannot guard itself", shown(name)))
                        }
                        Some(p) if !p.is_prisoner() => c.problem(
                            &e(),
                            format!(
                                "guard prisoners[{i}]: \"{}\" is not a prisoner (give it bound or a prisoner_rank)",
                                shown(name)
                            ),
                        ),
                        Some(p) if p.side == f.side && !p.bound.hands => c.problem(
                            &e(),
                            format!(
                                "guard prisoners[{i}]: \"{}\" is of the guard's own side and its hands are not bound",
                                shown(name)
                            ),
                        ),
                        Some(_) if g.prisoners[..i].contains(name) => {
                            c.problem(&e(), format!("guard prisoners[{i}]: \"{}\" is listed twice", shown(name)))
                        }
                        Some(_) => {}
                    }
                }
            }
            if g.sides_blocked > MAX_SIDES_BLOCKED {
                c.problem(&e(), format!("guard sides_blocked: {} must be 0 to {MAX_SIDES_BLOCKED}", g.sides_blocked));
            }
        }
        if let Some(b) = &f.berserker {
            if let Some(p) = b.exhaustion_point
                && !(1..=MAX_EXHAUSTION_POINT).contains(&p)
            {
                c.problem(&e(), format!("berserker exhaustion_point: {p} must be 1 to {MAX_EXHAUSTION_POINT}"));
            }
            if let Some(m) = b.begin_rage
                && !(1..=MAX_MOVES_PLAYED).contains(&m)
            {
                c.problem(&e(), format!("berserker begin_rage: {m} must be 1 to {MAX_MOVES_PLAYED}"));
            }
        }
        let p = &f.prisoner;
        if !p.is_empty() && !f.is_prisoner() {
            c.problem(&e(), "prisoner: only a prisoner (bound, or with a prisoner_rank) has a prisoner state".into());
        }
        if p.loosenings > MAX_LOOSENINGS {
            c.problem(&e(), format!("prisoner loosenings: {} is more than {MAX_LOOSENINGS}", p.loosenings));
        }
        if let Some(m) = p.last_ran_at
            && m > MAX_MOVES_PLAYED
        {
            c.problem(&e(), format!("prisoner last_ran_at: {m} is more than {MAX_MOVES_PLAYED}"));
        }
        if let Some(run) = &p.run {
            c.on_table(&e(), "prisoner run toward", run.toward);
            if run.struggle_rounds > MAX_STRUGGLE_ROUNDS {
                c.problem(
                    &e(),
                    format!("prisoner run struggle_rounds: {} is more than {MAX_STRUGGLE_ROUNDS}", run.struggle_rounds),
                );
            }
            if let Some(guard) = &run.pursued_by {
                let guards_him =
                    figure(guard).and_then(|g| g.guard.as_ref()).is_some_and(|role| role.prisoners.contains(&f.name));
                if !guards_him {
                    c.problem(
                        &e(),
                        format!("prisoner run pursued_by: \"{}\" is not a guard of this prisoner", shown(guard)),
                    );
                }
            }
            if run.status == RunStatus::Caught && run.pursued_by.is_none() {
                c.problem(&e(), "prisoner run: a caught runaway needs pursued_by, the guard holding him".into());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::load::validate;
    use crate::scene::{Scene, scene_to_ron};

    fn scene(figures: &str) -> Scene {
        let text = format!("(version: 1, table: (width: 40, height: 20), figures: [{figures}])");
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
    fn a_valid_escort_has_no_problems_and_round_trips() {
        let s = scene(
            "(name: \"Guard\", side: \"keep\", position: (1, 1), whip: true, melee_factor: 1,
               guard: (prisoners: [\"Ann\", \"Bo\"], expert: true, sides_blocked: 1)),
             (name: \"Ann\", side: \"raiders\", position: (2, 1), sex: female, bound: (hands: true, gag: true),
               prisoner_rank: officer, refuge: (39, 10), fatigue: 2,
               prisoner: (loosenings: 1, last_ran_at: 3,
                 run: (status: caught, toward: (39, 10), pursued_by: \"Guard\", knocked_down: true))),
             (name: \"Bo\", side: \"raiders\", position: (3, 1), prisoner_rank: follower),
             (name: \"Berk\", side: \"raiders\", position: (9, 9),
               berserker: (begin_rage: 2, exhaustion_point: 4, state: raging))",
        );
        assert_eq!(problems(&s), Vec::<String>::new());
        assert!(s.figures[1].is_prisoner() && s.figures[2].is_prisoner() && !s.figures[0].is_prisoner());
        assert!(s.figures[3].berserker.as_ref().is_some_and(|b| b.trained));
        let text = scene_to_ron(&s).expect("saves");
        let again: Scene = ron::from_str(&text).expect("loads");
        assert_eq!(again, s);
        // Defaults are left out.
        let plain = scene("(name: \"Cy\", position: (1, 1))");
        let text = scene_to_ron(&plain).expect("saves");
        for field in ["bound", "prisoner_rank", "guard", "berserker", "fatigue", "prisoner:", "whip", "refuge"] {
            assert!(!text.contains(field), "{field} in {text}");
        }
        assert!(!text.contains("prisoners"), "the default rules.prisoners block is left out: {text}");
    }

    #[test]
    fn errors_name_the_figure_and_field() {
        let s = scene(
            "(name: \"Guard\", position: (1, 1), guard: (prisoners: [\"Nobody\", \"Free\", \"Guard\", \"Own\"], sides_blocked: 5)),
             (name: \"Free\", side: \"raiders\", position: (2, 1)),
             (name: \"Own\", position: (2, 2), prisoner_rank: leader),
             (name: \"Wild\", position: (3, 3), melee_factor: 11, refuge: (50, 1),
               berserker: (begin_rage: 0, exhaustion_point: 0))",
        );
        let p = problems(&s);
        for wanted in [
            "figure \"Guard\": guard prisoners[0]: no figure",
            "figure \"Guard\": guard prisoners[1]: \"Free\" is not a prisoner",
            "figure \"Guard\": guard prisoners[2]: \"Guard\" cannot guard itself",
            "figure \"Guard\": guard prisoners[3]: \"Own\" is of the guard's own side",
            "figure \"Guard\": guard sides_blocked",
            "figure \"Wild\": melee_factor",
            "figure \"Wild\": refuge",
            "figure \"Wild\": berserker exhaustion_point",
            "figure \"Wild\": berserker begin_rage",
        ] {
            assert!(p.iter().any(|m| m.starts_with(wanted)), "{wanted}: {p:?}");
        }
        let s = scene(
            "(name: \"G\", position: (1, 1), guard: (prisoners: [])),
             (name: \"P\", position: (1, 2), bound: (hands: true), prisoner: (run: (status: caught, toward: (0, 2))))",
        );
        let p = problems(&s);
        assert!(p.iter().any(|m| m.starts_with("figure \"G\": guard prisoners: 0")), "{p:?}");
        assert!(p.iter().any(|m| m.starts_with("figure \"P\": prisoner run: a caught runaway")), "{p:?}");
    }
}
