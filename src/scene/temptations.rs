//! Temptations and decisions in the scene file: the sites a street holds, what a figure brings
//! to them (qualities, weaknesses, rank, money) and where it stands with them, and the GM's
//! `decide` orders (000 "Character Qualities for decision-making (EIMGILD ratings)", "To arrive
//! at a decision using card characters", "Temptations and Weaknesses", "Weaknesses").
//! docs/decisions.md "In a scene" says how the simulation reads them.

use super::format::{Point, Scene};
use super::load::{Checker, MAX_MOVES_PLAYED, MAX_NAME_CHARS, MAX_TABLE_INCHES, shown};
use crate::rules::decisions::{
    DecisionOption, KnownQualities, Qualities, TemptationKind, Weakness, WeaknessRoll, check_gm_factor, score_options,
};
use serde::{Deserialize, Serialize};

/// Most temptation sites in a scene: every figure that moves is measured against every site
/// each move, work that grows with figures × sites.
pub const MAX_TEMPTATION_SITES: usize = 500;
/// Most `decide` orders in a scene.
pub const MAX_DECISIONS: usize = 500;
/// Most `outvotes` orders in a scene.
pub const MAX_OUTVOTES: usize = 500;
/// Most voters one outvote order may name.
pub const MAX_OUTVOTE_VOTERS: usize = 100;
/// Most `weakness_checks` in a scene.
pub const MAX_WEAKNESS_CHECKS: usize = 500;
/// Most options one decision may weigh: the D10 has ten faces.
pub const MAX_DECISION_OPTIONS: usize = 10;
/// Most weaknesses a figure may list (each of 000's counts once).
pub const MAX_WEAKNESSES: usize = Weakness::ALL.len();
/// Most moves a figure may have left inside a timed site (the longest row rolls D6 + 3).
pub const MAX_STAY_MOVES: u32 = 100;
/// Largest cost per move of a site, in the scene's coin.
pub const MAX_COST_PER_MOVE: u32 = 1_000_000;
fn is_zero_i32(v: &i32) -> bool {
    *v == 0
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

/// A temptation on the table: a tavern, a bakery, a dicing game, a mirror, ...
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemptationSite {
    /// The site's name, unique in the scene.
    pub name: String,
    /// Which row of 000's list it is.
    pub kind: TemptationKind,
    /// Where it stands; a figure that goes in stops on its path where it came nearest to it.
    pub position: Point,
    /// How far it pulls at figures passing, in inches; none: the house rule
    /// `rules.temptations.reach_in` (3").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reach: Option<f32>,
    /// The row's GM-judged factor, added as given: thirst (tavern), hunger (bakery), quality of
    /// music (musician), dirtiness (public baths), LR (red-light premises 0–1, street harlot 1–3).
    /// A higher total resists, so a parched street's thirst is negative. 0 for the other rows.
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub gm_factor: i32,
    /// What a figure inside pays each move it is in (the move it goes in and each move it stays),
    /// in the scene's coin; 0: nothing. Reading of "Money expenditure will often need to be
    /// catered for" (docs/house-rules.md "Decisions and temptations").
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub cost_per_move: u32,
}

/// A figure inside a site.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inside {
    /// The site's name.
    pub site: String,
    /// A timed row (baths, monument, red-light premises, harlot, mirror): the moves still to
    /// stay. `None` for the rows left by a roll each move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_left: Option<u32>,
    /// Moves spent inside so far (the move it went in not counted).
    #[serde(default)]
    pub moves: u32,
}

/// Where a figure stands with the temptations; written by the simulation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TemptationState {
    /// The site it is inside: its path waits until it leaves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inside: Option<Inside>,
    /// The sites whose reach it is in and has already been tempted by on this passing: each
    /// tempts a figure once a passing, until it ends a move out of the site's reach.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub passing: Vec<String>,
    /// The sites at which its weaknesses without dice have been shown to the GM (once a site).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reminded: Vec<String>,
}

impl TemptationState {
    /// Nothing to write: not inside, passing nothing, reminded nowhere.
    pub fn is_empty(&self) -> bool {
        self.inside.is_none() && self.passing.is_empty() && self.reminded.is_empty()
    }
}

/// A GM's `decide` order: at a move, a figure dices between options (000 "To arrive at a
/// decision using card characters").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisionOrder {
    /// What is decided, in the GM's words (the log's subject is the decider).
    pub name: String,
    /// The figure who decides: its qualities count (diced where not given).
    pub decider: String,
    /// The move it is diced in (1 is the first move played).
    pub at_move: u32,
    /// The options, each with its causation factor, any Charmer's rating and the qualities
    /// that favour it; exactly one quality doubled in all.
    pub options: Vec<DecisionOption>,
}

/// A GM's outvote order: at a move, the voters try to talk a figure out of the site it is in
/// (000 "Temptations and Weaknesses": "A character who succumbs can be outvoted by two others of
/// equal or higher rank").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutvoteOrder {
    /// What the GM calls it (the log's subject is the figure).
    pub name: String,
    /// The figure to be talked out of its site.
    pub figure: String,
    /// The figures who vote; those inside a site themselves do not.
    pub voters: Vec<String>,
    /// The move it is given in (1 is the first move played).
    pub at_move: u32,
}

/// A GM's weakness check: at a move, a figure dices one of its weakness's own rolls that is not
/// about leaving a site (000 "Weaknesses": kleptomania's "3+ not to", clumsiness's "D10 3+ not to
/// fell likely objects", over-talkative's "7+ to stop", collector's "7+ not to be distracted").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaknessCheck {
    /// What the GM calls it (the log's subject is the figure).
    pub name: String,
    /// The figure who dices; it must have the weakness the roll belongs to.
    pub figure: String,
    /// `not_steal`, `not_fell`, `friend_in_melee`, `stop_talking` or `not_distracted`.
    pub roll: WeaknessRoll,
    /// The move it is diced in (1 is the first move played).
    pub at_move: u32,
}

/// The weakness rolls a `weakness_checks` entry may ask for: not the rolls to leave a site
/// (`stop_drinking`, `stop_gambling`, `stop_dallying`), which come with the site.
/// `friend_in_melee` is the GM's order when a clumsy figure is in melee: one roll for each
/// friend within 1".
pub const CHECKED_WEAKNESS_ROLLS: [WeaknessRoll; 5] = [
    WeaknessRoll::NotSteal,
    WeaknessRoll::NotFell,
    WeaknessRoll::FriendInMelee,
    WeaknessRoll::StopTalking,
    WeaknessRoll::NotDistracted,
];

/// The checks on the figures' qualities, weaknesses and temptation state, the sites, the
/// `decide` orders, the outvote orders and the weakness checks.
pub(crate) fn check_scene<'a>(scene: &'a Scene, c: &mut Checker<'a>) {
    if scene.temptations.len() > MAX_TEMPTATION_SITES {
        c.problem(
            "scene",
            format!("temptations: {} sites, more than the {MAX_TEMPTATION_SITES} allowed", scene.temptations.len()),
        );
        return;
    }
    for site in &scene.temptations {
        site.check(c);
    }
    let site = |name: &str| scene.temptations.iter().find(|s| s.name == name);
    for f in &scene.figures {
        // Formatted only for a problem: most figures have none.
        let e = || format!("figure \"{}\"", shown(&f.name));
        if let Err(err) = f.qualities.validate() {
            c.problem(&e(), format!("qualities: {err}"));
        }
        if f.weaknesses.len() > MAX_WEAKNESSES {
            c.problem(
                &e(),
                format!("weaknesses: {} listed, more than the {MAX_WEAKNESSES} allowed", f.weaknesses.len()),
            );
        }
        let t = &f.temptation;
        for (field, list) in [("passing", &t.passing), ("reminded", &t.reminded)] {
            if list.len() > MAX_TEMPTATION_SITES {
                c.problem(
                    &e(),
                    format!("temptation {field}: {} entries, more than {MAX_TEMPTATION_SITES}", list.len()),
                );
            }
        }
        if let Some(inside) = &t.inside {
            match site(&inside.site) {
                None => c.problem(
                    &e(),
                    format!("temptation inside: no temptation site is named \"{}\"", shown(&inside.site)),
                ),
                Some(s) => {
                    let timed = s.kind.row().stay.is_some();
                    match inside.moves_left {
                        None if timed => c.problem(
                            &e(),
                            format!("temptation inside \"{}\": a {} needs moves_left", shown(&s.name), s.kind.id()),
                        ),
                        Some(_) if !timed => c.problem(
                            &e(),
                            format!(
                                "temptation inside \"{}\": moves_left is for timed sites; a {} is left by a roll",
                                shown(&s.name),
                                s.kind.id()
                            ),
                        ),
                        Some(m) if m > MAX_STAY_MOVES => {
                            c.problem(&e(), format!("temptation inside moves_left: {m} is more than {MAX_STAY_MOVES}"))
                        }
                        _ => {}
                    }
                }
            }
            if inside.moves > MAX_MOVES_PLAYED {
                c.problem(&e(), format!("temptation inside moves: {} is more than {MAX_MOVES_PLAYED}", inside.moves));
            }
        }
    }
    if scene.decisions.len() > MAX_DECISIONS {
        c.problem(
            "scene",
            format!("decisions: {} orders, more than the {MAX_DECISIONS} allowed", scene.decisions.len()),
        );
        return;
    }
    for d in &scene.decisions {
        d.check(scene, c);
    }
    if scene.outvotes.len() > MAX_OUTVOTES {
        c.problem("scene", format!("outvotes: {} orders, more than the {MAX_OUTVOTES} allowed", scene.outvotes.len()));
        return;
    }
    for o in &scene.outvotes {
        o.check(scene, c);
    }
    if scene.weakness_checks.len() > MAX_WEAKNESS_CHECKS {
        c.problem(
            "scene",
            format!(
                "weakness_checks: {} checks, more than the {MAX_WEAKNESS_CHECKS} allowed",
                scene.weakness_checks.len()
            ),
        );
        return;
    }
    for w in &scene.weakness_checks {
        w.check(scene, c);
    }
}

/// An order's entity in errors (`KIND "NAME"`), with its name checked: not empty, not too long.
/// Orders' names need not be unique: they are not entities on the table.
fn order_entity(kind: &str, name: &str, c: &mut Checker) -> String {
    let e = format!("{kind} \"{}\"", shown(name));
    if name.trim().is_empty() {
        c.problem(&format!("{kind} (unnamed)"), "name: must not be empty".into());
    } else if name.chars().count() > MAX_NAME_CHARS {
        c.problem(&e, format!("name: longer than {MAX_NAME_CHARS} characters"));
    }
    e
}

/// The `at_move` check every order shares.
fn check_at_move(e: &str, at_move: u32, c: &mut Checker) {
    if !(1..=MAX_MOVES_PLAYED).contains(&at_move) {
        c.problem(e, format!("at_move: {at_move} must be 1 to {MAX_MOVES_PLAYED}"));
    }
}

impl OutvoteOrder {
    /// The checks the parser cannot make: the figure and every voter are figures, none voting
    /// on itself or twice, and the move one a scene may play.
    fn check(&self, scene: &Scene, c: &mut Checker) {
        let e = order_entity("outvote", &self.name, c);
        if !scene.figures.iter().any(|f| f.name == self.figure) {
            c.problem(&e, format!("figure: no figure is named \"{}\"", shown(&self.figure)));
        }
        if self.voters.is_empty() || self.voters.len() > MAX_OUTVOTE_VOTERS {
            c.problem(&e, format!("voters: {} must be 1 to {MAX_OUTVOTE_VOTERS}", self.voters.len()));
        } else {
            for (i, v) in self.voters.iter().enumerate() {
                if !scene.figures.iter().any(|f| f.name == *v) {
                    c.problem(&e, format!("voters[{i}]: no figure is named \"{}\"", shown(v)));
                } else if *v == self.figure {
                    c.problem(&e, format!("voters[{i}]: \"{}\" cannot outvote itself", shown(v)));
                } else if self.voters[..i].contains(v) {
                    c.problem(&e, format!("voters[{i}]: \"{}\" is listed twice", shown(v)));
                }
            }
        }
        check_at_move(&e, self.at_move, c);
    }
}

impl WeaknessCheck {
    /// The checks the parser cannot make: the figure has the weakness the roll belongs to, the
    /// roll is not one to leave a site (those come with the site) and the move one a scene may
    /// play.
    fn check(&self, scene: &Scene, c: &mut Checker) {
        let e = order_entity("weakness check", &self.name, c);
        if !CHECKED_WEAKNESS_ROLLS.contains(&self.roll) {
            c.problem(
                &e,
                format!(
                    "roll: {} is not a weakness check (not_steal, not_fell, stop_talking or not_distracted)",
                    self.roll.id()
                ),
            );
        }
        match scene.figures.iter().find(|f| f.name == self.figure) {
            None => c.problem(&e, format!("figure: no figure is named \"{}\"", shown(&self.figure))),
            Some(f) => {
                let weakness = self.roll.weakness();
                if !f.weaknesses.contains(&weakness) {
                    c.problem(
                        &e,
                        format!(
                            "figure: \"{}\" has no {} weakness for a {} roll",
                            shown(&self.figure),
                            weakness.id(),
                            self.roll.id()
                        ),
                    );
                }
            }
        }
        check_at_move(&e, self.at_move, c);
    }
}

impl TemptationSite {
    /// How far the site pulls, in inches: its own `reach`, or the house rule's.
    pub fn reach_in(&self, settings: &crate::rules::decisions::TemptationSettings) -> f32 {
        self.reach.unwrap_or(settings.reach_in)
    }

    /// Whether the house rule `temptations.reach_in` gives the site its reach.
    pub fn reach_is_house_rule(&self) -> bool {
        self.reach.is_none()
    }

    /// The checks the parser cannot make.
    pub(crate) fn check<'a>(&'a self, c: &mut Checker<'a>) {
        let e = c.name("temptation", &self.name);
        c.on_table(&e, "position", self.position);
        if let Some(reach) = self.reach {
            c.positive(&e, "reach", reach, MAX_TABLE_INCHES);
        }
        if let Err(err) = check_gm_factor(self.kind, self.gm_factor) {
            c.problem(&e, format!("gm_factor: {err}"));
        }
        if self.cost_per_move > MAX_COST_PER_MOVE {
            c.problem(&e, format!("cost_per_move: {} is more than {MAX_COST_PER_MOVE}", self.cost_per_move));
        }
    }
}

impl DecisionOrder {
    /// The checks the parser cannot make: the decider is a figure, the move one a scene may
    /// play, and the options ones the decision dice accept.
    fn check(&self, scene: &Scene, c: &mut Checker) {
        let e = format!("decision \"{}\"", shown(&self.name));
        if self.name.trim().is_empty() {
            c.problem("decision (unnamed)", "name: must not be empty".into());
        } else if self.name.chars().count() > MAX_NAME_CHARS {
            c.problem(&e, format!("name: longer than {MAX_NAME_CHARS} characters"));
        }
        if !scene.figures.iter().any(|f| f.name == self.decider) {
            c.problem(&e, format!("decider: no figure is named \"{}\"", shown(&self.decider)));
        }
        if !(1..=MAX_MOVES_PLAYED).contains(&self.at_move) {
            c.problem(&e, format!("at_move: {} must be 1 to {MAX_MOVES_PLAYED}", self.at_move));
        }
        if self.options.is_empty() || self.options.len() > MAX_DECISION_OPTIONS {
            c.problem(&e, format!("options: {} must be 1 to {MAX_DECISION_OPTIONS}", self.options.len()));
            return;
        }
        for (i, o) in self.options.iter().enumerate() {
            if o.name.trim().is_empty() {
                c.problem(&e, format!("options[{i}]: name must not be empty"));
            } else if o.name.chars().count() > MAX_NAME_CHARS {
                c.problem(&e, format!("options[{i}]: name longer than {MAX_NAME_CHARS} characters"));
            }
            if o.charmer_rating > 20 {
                c.problem(&e, format!("options[{i}] charmer_rating: {} must be 0 to 20", o.charmer_rating));
            }
        }
        // The structure the dice need (causation 0–5, one quality doubled, none repeated),
        // checked with the norm's qualities: the decider's own are known only in play.
        if let Err(err) = score_options(&Qualities::NORM, &self.options) {
            c.problem(&e, format!("options: {err}"));
        }
    }
}

/// Whether a figure's qualities are all unknown (the default, left out when saved).
pub(crate) fn is_unknown(q: &KnownQualities) -> bool {
    *q == KnownQualities::default()
}

#[cfg(test)]
mod tests {
    use crate::scene::load::validate;
    use crate::scene::{Scene, scene_to_ron};

    fn scene(figures: &str, temptations: &str, decisions: &str) -> Scene {
        let text = format!(
            "(version: 1, table: (width: 40, height: 20), figures: [{figures}], temptations: [{temptations}], \
             decisions: [{decisions}])"
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

    const WALKER: &str = "(name: \"Ann\", position: (1, 1), qualities: (integrity: 5), weaknesses: [alcohol], \
                          rank: officer, money: 20, path: [(39, 1)])";

    #[test]
    fn a_valid_street_has_no_problems_and_keeps_its_defaults() {
        let s = scene(
            WALKER,
            "(name: \"Tavern\", kind: low_drinking_tavern, position: (10, 3), gm_factor: -1, cost_per_move: 2)",
            "(name: \"Wait?\", decider: \"Ann\", at_move: 3, options: [
               (name: \"wait\", causation: 2, qualities: [(quality: loyalty, relevance: doubled)]),
               (name: \"go\", causation: 3)])",
        );
        assert_eq!(problems(&s), Vec::<String>::new());
        assert_eq!(s.temptations[0].reach, None);
        assert_eq!(s.temptations[0].reach_in(&s.rules.temptations), crate::rules::decisions::DEFAULT_REACH_IN);
        assert_eq!(s.figures[0].money, Some(20));
        assert_eq!(s.figures[0].qualities.integrity, Some(5));
        assert!(s.figures[0].reader);
        let text = scene_to_ron(&s).expect("saves");
        let again: Scene = ron::from_str(&text).expect("loads");
        assert_eq!(again, s);
    }

    #[test]
    fn errors_name_the_site_and_field() {
        let s = scene(
            WALKER,
            "(name: \"Harlot\", kind: street_harlot, position: (10, 30)),
             (name: \"Baker\", kind: bakery, position: (5, 5), reach: 0),
             (name: \"Mirror\", kind: mirror, position: (5, 5), gm_factor: 2)",
            "",
        );
        let p = problems(&s);
        assert!(p.iter().any(|m| m.starts_with("temptation \"Harlot\": position")), "{p:?}");
        assert!(p.iter().any(|m| m.starts_with("temptation \"Harlot\": gm_factor")), "{p:?}");
        assert!(p.iter().any(|m| m.starts_with("temptation \"Baker\": reach")), "{p:?}");
        assert!(p.iter().any(|m| m.starts_with("temptation \"Mirror\": gm_factor")), "{p:?}");
        // A site's name is unique among every entity.
        let s = scene(WALKER, "(name: \"Ann\", kind: mirror, position: (5, 5))", "");
        assert!(problems(&s).iter().any(|m| m.contains("temptation \"Ann\": name")), "{:?}", problems(&s));
    }

    #[test]
    fn figure_fields_and_decisions_are_checked() {
        let s = scene(
            "(name: \"Bo\", position: (1, 1), qualities: (energy: 8),
              temptation: (inside: (site: \"Nowhere\")))",
            "",
            "(name: \"Flee?\", decider: \"Nobody\", at_move: 0, options: [(name: \"run\", causation: 6)])",
        );
        let p = problems(&s);
        assert!(p.iter().any(|m| m.starts_with("figure \"Bo\": qualities")), "{p:?}");
        assert!(p.iter().any(|m| m.starts_with("figure \"Bo\": temptation inside")), "{p:?}");
        assert!(p.iter().any(|m| m.starts_with("decision \"Flee?\": decider")), "{p:?}");
        assert!(p.iter().any(|m| m.starts_with("decision \"Flee?\": at_move")), "{p:?}");
        assert!(p.iter().any(|m| m.starts_with("decision \"Flee?\": options")), "{p:?}");
        // A timed site needs its moves left; a site left by a roll has none.
        let s = scene(
            "(name: \"Cy\", position: (1, 1), temptation: (inside: (site: \"Baths\"))),
             (name: \"Di\", position: (1, 1), temptation: (inside: (site: \"Inn\", moves_left: 2)))",
            "(name: \"Baths\", kind: public_baths, position: (5, 5)),
             (name: \"Inn\", kind: low_drinking_tavern, position: (9, 5))",
            "",
        );
        let p = problems(&s);
        assert!(p.iter().any(|m| m.starts_with("figure \"Cy\": temptation inside \"Baths\"")), "{p:?}");
        assert!(p.iter().any(|m| m.starts_with("figure \"Di\": temptation inside \"Inn\"")), "{p:?}");
    }

    #[test]
    fn too_many_sites_are_refused() {
        let sites: Vec<String> = (0..=super::MAX_TEMPTATION_SITES)
            .map(|i| format!("(name: \"s{i}\", kind: mirror, position: (5, 5))"))
            .collect();
        let s = scene("", &sites.join(","), "");
        let p = problems(&s);
        assert!(p.iter().any(|m| m.starts_with("scene: temptations")), "{p:?}");
    }
}
