//! Injuries in the scene (docs/injuries.md, docs/scene-format.md "Injuries"): the GM's own D%
//! location tables, the treatment orders `tabula rest` follows, and the bounds on a condition's
//! healing state, so that whatever rest writes loads again.

use super::format::{Condition, Scene};
use super::load::{Checker, MAX_ENTITIES_PER_KIND, MAX_NAME_CHARS};
use crate::rules::injuries::{
    DayTreatment, HealerLevel, HealingState, LocationTable, Penalties, PenaltySchedule, WoundKind,
};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// Most days any count of a healing state may hold (the healing time, the days left, the days
/// to death or to a cure, the days treated): about 270 years, far beyond any table, so that
/// the arithmetic stays small. Rest never writes more (it holds every count to this).
pub const MAX_HEALING_DAYS: u32 = 100_000;
/// Largest deduction, either way, in a location row or a healing state (inches off the move,
/// melee, firing).
pub const MAX_PENALTY: i32 = 100;
/// Most rows in a location table: together they cover 00–99 once each.
pub const MAX_LOCATION_ROWS: usize = 100;
/// Longest `effects` text of a location row, in characters.
pub const MAX_EFFECTS_CHARS: usize = 1000;
/// Most times a row's healing die may count (`times`).
pub const MAX_HEALING_TIMES: u32 = 100;
/// Largest number of days, either way, a row's healing dice may add (`plus`).
pub const MAX_HEALING_PLUS: i32 = 1000;
/// Most phials of holy water one order gives each injury it covers.
pub const MAX_HOLY_WATER_PHIALS: u32 = 100;

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_true(b: &bool) -> bool {
    *b
}

fn yes() -> bool {
    true
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A treatment order for the days of rest: who treats whom, with what, and whether the patient
/// rests fully (000 "Adventurers Wounding", "Adventurers Crippling" and the burn paragraphs;
/// "Infections"; 001 "Saga Apparently Dead Recovery Dicing"). Orders stand: each `tabula rest`
/// applies them from its first day.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Treatment {
    /// The figure treated: a figure's name.
    pub patient: String,
    /// Only the patient's condition of this name; none: every injury the patient has. An order
    /// naming a condition the patient no longer has (healed and gone) covers nothing. When rest
    /// renames the condition it names (an apparent death resolved, a death), the order follows
    /// it to its new name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// Who treats: a figure's name; none: the patient, or a helper not on the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// A healer's treatment (000 "Adventurers Crippling": a 1st-level healer "deducts D6 -2
    /// days", a 2nd-level healer "D6 days", "if constant for at least half the time").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub healer: Option<HealerLevel>,
    /// The healer attends every day of the rest; `false`: the first day only (not constant).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub constant: bool,
    /// The patient rests fully every day (000: "Each two days full rest deducts one").
    #[serde(default, skip_serializing_if = "is_false")]
    pub full_rest: bool,
    /// Healing balm (antiseptic), or a dressing, is applied (000 "Infections": no infection checks).
    #[serde(default, skip_serializing_if = "is_false")]
    pub healing_balm: bool,
    /// A pain-soothing salve is applied (000 "Adventurers Wounding": −1 off the Me & Fi deductions of a wound).
    #[serde(default, skip_serializing_if = "is_false")]
    pub pain_soothing_salve: bool,
    /// A burn salve is applied (000 "Adventurers Burn Wounding", "Adventurer's Cripple burns").
    #[serde(default, skip_serializing_if = "is_false")]
    pub burn_salve: bool,
    /// Phials of holy water each injury the order covers gets, one a day from the first day of
    /// the rest (000: "A phial of Holey water deducts D10 + 35% of healing time"); 0 to 100.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub holy_water: u32,
    /// The patient was treated within 3 moves of the action (001 "Saga Apparently Dead Recovery
    /// Dicing": "D10 + 1 if treated within 3 moves").
    #[serde(default, skip_serializing_if = "is_false")]
    pub treated_within_three_moves: bool,
}

impl Treatment {
    /// An order for `patient` with every field as a scene file leaves it when not written:
    /// every injury, no healer or remedy, `constant`.
    pub fn for_patient(patient: &str) -> Treatment {
        Treatment {
            patient: patient.into(),
            condition: None,
            by: None,
            healer: None,
            constant: true,
            full_rest: false,
            healing_balm: false,
            pain_soothing_salve: false,
            burn_salve: false,
            holy_water: 0,
            treated_within_three_moves: false,
        }
    }
}

impl Treatment {
    /// Whether the order is for `patient` and covers the patient's condition named `condition`.
    pub fn covers(&self, patient: &str, condition: &str) -> bool {
        self.patient == patient && self.covers_condition(condition)
    }

    /// Whether the order (for whatever patient) covers a condition named `condition`.
    pub fn covers_condition(&self, condition: &str) -> bool {
        self.condition.as_deref().is_none_or(|c| c == condition)
    }

    /// What the order does on day `day` of a rest (1 is the first day): everything it gives,
    /// the healer only on the first day unless `constant`, and a phial of holy water while
    /// `day` is within `holy_water`.
    pub fn on_day(&self, day: u32) -> DayTreatment {
        DayTreatment {
            full_rest: self.full_rest,
            healer: self.healer.filter(|_| self.constant || day == 1),
            healing_balm: self.healing_balm,
            pain_soothing_salve: self.pain_soothing_salve,
            burn_salve: self.burn_salve,
            holy_water: day <= self.holy_water,
        }
    }
}

/// One injury's treatment on day `day` of a rest from every order in `orders` that covers the
/// condition named `condition` (the caller picks the patient's orders): whatever any order
/// gives, the higher healer level when two attend, and the orders' phials of holy water one a
/// day from the first day.
pub fn day_treatment<'a>(orders: impl IntoIterator<Item = &'a Treatment>, condition: &str, day: u32) -> DayTreatment {
    let mut t = DayTreatment::default();
    let mut phials: u32 = 0;
    for o in orders.into_iter().filter(|o| o.covers_condition(condition)) {
        let today = o.on_day(day);
        t.full_rest |= today.full_rest;
        t.healing_balm |= today.healing_balm;
        t.pain_soothing_salve |= today.pain_soothing_salve;
        t.burn_salve |= today.burn_salve;
        t.healer = match (t.healer, today.healer) {
            (Some(HealerLevel::Second), _) | (_, Some(HealerLevel::Second)) => Some(HealerLevel::Second),
            (a, b) => a.or(b),
        };
        phials = phials.saturating_add(o.holy_water);
    }
    t.holy_water = day <= phials;
    t
}

/// Penalties held within ±[`MAX_PENALTY`].
pub fn bound_penalties(p: Penalties) -> Penalties {
    let b = |v: i32| v.clamp(-MAX_PENALTY, MAX_PENALTY);
    Penalties { move_inches: b(p.move_inches), melee: b(p.melee), firing: b(p.firing) }
}

/// A healing state held within what the scene check accepts ([`check_healing`]): every count of
/// days at most [`MAX_HEALING_DAYS`], the days left and infection checks within the healing
/// time, the deductions within ±[`MAX_PENALTY`]. Rest passes every state it writes through
/// this, so a rested scene always loads; states the rules give from the texts' dice are far
/// inside the bounds and come back unchanged.
pub fn bound_healing(mut s: HealingState) -> HealingState {
    let days = |d: u32| d.min(MAX_HEALING_DAYS);
    s.total_days = days(s.total_days);
    s.days_left = days(s.days_left).min(s.total_days);
    s.infection_checks_left = days(s.infection_checks_left).min(s.total_days);
    s.dies_in_days = s.dies_in_days.map(days);
    let t = &mut s.treated;
    t.rest_days = days(t.rest_days);
    t.healer_days = days(t.healer_days);
    t.second_level_healer_days = days(t.second_level_healer_days).min(t.healer_days);
    t.healer_deducted = t.healer_deducted.map(days);
    t.holy_water_phials = days(t.holy_water_phials);
    if let Some(f) = s.festering.as_mut() {
        f.heals_in_days = f.heals_in_days.map(days);
        f.dies_in_days = f.dies_in_days.map(days);
    }
    s.permanent = bound_penalties(s.permanent);
    if let PenaltySchedule::Fixed(p) = &mut s.schedule {
        *p = bound_penalties(*p);
    }
    s
}

/// A condition's name as problems quote it.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.chars().take(MAX_NAME_CHARS).collect::<String>())
}

/// The checks on the scene's injuries: its location tables, its treatment orders, and the
/// healing states of figures' and sleeping-group members' conditions. Each problem names the
/// table, order, figure or group.
pub(crate) fn check_scene(scene: &Scene, c: &mut Checker<'_>) {
    check_tables(&scene.location_tables, c);
    check_treatments(scene, c);
    for f in scene.figures.iter().filter(|f| !f.conditions.is_empty()) {
        let entity = format!("figure {}", quoted(&f.name));
        for cond in &f.conditions {
            check_condition(c, &entity, "", cond);
        }
    }
    for g in &scene.sleepers {
        let entity = format!("sleeping group {}", quoted(&g.name));
        for (i, m) in g.members.iter().enumerate().filter(|(_, m)| !m.0.conditions.is_empty()) {
            let who = format!("members[{i}] {}: ", quoted(&m.0.name));
            for cond in &m.0.conditions {
                check_condition(c, &entity, &who, cond);
            }
        }
    }
}

/// A condition's healing state, if it has one: see [`check_healing`].
fn check_condition(c: &mut Checker<'_>, entity: &str, prefix: &str, cond: &Condition) {
    if let Some(state) = &cond.healing {
        for message in check_healing(state) {
            c.problem(entity, format!("{prefix}conditions {}: healing {message}", quoted(&cond.name)));
        }
    }
}

/// What is wrong with a healing state: each count of days at most [`MAX_HEALING_DAYS`], the
/// days left and the infection checks left at most the healing time, the 2nd-level healer's
/// days at most the healer's days, each deduction within ±[`MAX_PENALTY`]. Empty when it is
/// sound.
pub fn check_healing(s: &HealingState) -> Vec<String> {
    let mut out = Vec::new();
    let t = &s.treated;
    let counts = [
        ("total_days", Some(s.total_days)),
        ("days_left", Some(s.days_left)),
        ("infection_checks_left", Some(s.infection_checks_left)),
        ("dies_in_days", s.dies_in_days),
        ("treated rest_days", Some(t.rest_days)),
        ("treated healer_days", Some(t.healer_days)),
        ("treated second_level_healer_days", Some(t.second_level_healer_days)),
        ("treated healer_deducted", t.healer_deducted),
        ("treated holy_water_phials", Some(t.holy_water_phials)),
        ("festering heals_in_days", s.festering.and_then(|f| f.heals_in_days)),
        ("festering dies_in_days", s.festering.and_then(|f| f.dies_in_days)),
    ];
    for (field, value) in counts {
        if let Some(v) = value
            && v > MAX_HEALING_DAYS
        {
            out.push(format!("{field}: {v} is more than {MAX_HEALING_DAYS} days"));
        }
    }
    if s.days_left > s.total_days {
        out.push(format!("days_left: {} is more than total_days {}", s.days_left, s.total_days));
    }
    if s.infection_checks_left > s.total_days {
        out.push(format!(
            "infection_checks_left: {} is more than total_days {}",
            s.infection_checks_left, s.total_days
        ));
    }
    if t.second_level_healer_days > t.healer_days {
        out.push(format!(
            "treated second_level_healer_days: {} is more than healer_days {}",
            t.second_level_healer_days, t.healer_days
        ));
    }
    let mut penalties = vec![("permanent", s.permanent)];
    if let PenaltySchedule::Fixed(p) = s.schedule {
        penalties.push(("schedule fixed", p));
    }
    for (field, p) in penalties {
        if let Some(problem) = penalty_problem(p) {
            out.push(format!("{field}: {problem}"));
        }
    }
    out
}

/// Why deductions are out of bounds, if they are.
fn penalty_problem(p: Penalties) -> Option<String> {
    [("move_inches", p.move_inches), ("melee", p.melee), ("firing", p.firing)]
        .into_iter()
        .find(|(_, v)| !(-MAX_PENALTY..=MAX_PENALTY).contains(v))
        .map(|(field, v)| format!("{field} {v} must be -{MAX_PENALTY} to {MAX_PENALTY}"))
}

/// The scene's location tables: at most one of each kind, each row within its bounds, and the
/// rows covering 00–99 once each ([`LocationTable::validate`]). Problems name the table by its
/// kind: `location table "burn": no row covers 42`.
fn check_tables(tables: &[LocationTable], c: &mut Checker<'_>) {
    let kinds = WoundKind::ALL.len();
    if tables.len() > kinds {
        c.problem(
            "scene",
            format!(
                "location_tables: {} tables, more than the {kinds} kinds of injury (one table a kind)",
                tables.len()
            ),
        );
        return;
    }
    let mut seen = HashSet::new();
    for t in tables {
        let e = format!("location table \"{}\"", t.kind.id());
        if !seen.insert(t.kind) {
            c.problem(&e, "kind: another location table is for this kind; one table a kind".into());
        }
        if t.rows.len() > MAX_LOCATION_ROWS {
            c.problem(&e, format!("rows: {} rows, more than the {MAX_LOCATION_ROWS} allowed", t.rows.len()));
            continue;
        }
        for (i, r) in t.rows.iter().enumerate() {
            let row = i + 1;
            if r.location.trim().is_empty() {
                c.problem(&e, format!("row {row}: location must not be empty"));
            } else if r.location.chars().count() > MAX_NAME_CHARS {
                c.problem(&e, format!("row {row}: location longer than {MAX_NAME_CHARS} characters"));
            }
            if r.effects.chars().count() > MAX_EFFECTS_CHARS {
                c.problem(&e, format!("row {row}: effects longer than {MAX_EFFECTS_CHARS} characters"));
            }
            if let Some(problem) = penalty_problem(r.penalties) {
                c.problem(&e, format!("row {row}: penalties {problem}"));
            }
            if r.healing.times > MAX_HEALING_TIMES {
                c.problem(&e, format!("row {row}: healing times {} must be 1 to {MAX_HEALING_TIMES}", r.healing.times));
            }
            if !(-MAX_HEALING_PLUS..=MAX_HEALING_PLUS).contains(&r.healing.plus) {
                c.problem(
                    &e,
                    format!(
                        "row {row}: healing plus {} must be -{MAX_HEALING_PLUS} to {MAX_HEALING_PLUS}",
                        r.healing.plus
                    ),
                );
            }
        }
        if let Err(err) = t.validate() {
            c.problem(&e, err.to_string());
        }
    }
}

/// The treatment orders: each names a figure as its patient and, if it names one, a figure who
/// treats; at most [`MAX_HOLY_WATER_PHIALS`] phials. Problems name the order by its place and
/// patient: `treatment 2 (of "Greta"): by: no figure is named "Ulf"`.
fn check_treatments(scene: &Scene, c: &mut Checker<'_>) {
    if scene.treatments.len() > MAX_ENTITIES_PER_KIND {
        c.problem(
            "scene",
            format!("treatments: {} entries, more than the {MAX_ENTITIES_PER_KIND} allowed", scene.treatments.len()),
        );
        return;
    }
    if scene.treatments.is_empty() {
        return;
    }
    let figures: HashSet<&str> = scene.figures.iter().map(|f| f.name.as_str()).collect();
    for (i, t) in scene.treatments.iter().enumerate() {
        let e = format!("treatment {} (of {})", i + 1, quoted(&t.patient));
        if !figures.contains(t.patient.as_str()) {
            c.problem(&e, format!("patient: no figure is named {}", quoted(&t.patient)));
        }
        if let Some(by) = &t.by
            && !figures.contains(by.as_str())
        {
            c.problem(&e, format!("by: no figure is named {}", quoted(by)));
        }
        if let Some(name) = &t.condition
            && name.trim().is_empty()
        {
            c.problem(&e, "condition: must name a condition, or be left out for every injury".into());
        }
        if t.holy_water > MAX_HOLY_WATER_PHIALS {
            c.problem(&e, format!("holy_water: {} phials, more than {MAX_HOLY_WATER_PHIALS}", t.holy_water));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::injuries::{FesterOutcome, Festering, WoundRecovery};

    fn order(patient: &str) -> Treatment {
        Treatment::for_patient(patient)
    }

    #[test]
    fn an_order_for_a_patient_is_what_a_file_leaves_unwritten() {
        let parsed: Treatment = ron::from_str("(patient: \"A\")").expect("an order");
        assert_eq!(Treatment::for_patient("A"), parsed);
    }

    #[test]
    fn orders_combine_day_by_day() {
        let first = Treatment { healer: Some(HealerLevel::First), holy_water: 2, full_rest: true, ..order("A") };
        let second = Treatment {
            healer: Some(HealerLevel::Second),
            constant: false,
            condition: Some("cut".into()),
            holy_water: 1,
            burn_salve: true,
            ..order("A")
        };
        let orders = [first, second];
        // Day 1: both healers attend, the 2nd level counts; every order's salve; 3 phials in all.
        let day1 = day_treatment(&orders, "cut", 1);
        assert_eq!(day1.healer, Some(HealerLevel::Second));
        assert!(day1.full_rest && day1.burn_salve && day1.holy_water);
        // Day 2: the 2nd-level healer is not constant.
        assert_eq!(day_treatment(&orders, "cut", 2).healer, Some(HealerLevel::First));
        assert!(day_treatment(&orders, "cut", 3).holy_water);
        assert!(!day_treatment(&orders, "cut", 4).holy_water);
        // Another condition: only the first order covers it (2 phials).
        let other = day_treatment(&orders, "burn", 1);
        assert!(!other.burn_salve && other.healer == Some(HealerLevel::First));
        assert!(day_treatment(&orders, "burn", 2).holy_water && !day_treatment(&orders, "burn", 3).holy_water);
        assert!(orders[0].covers("A", "anything") && !orders[0].covers("B", "anything"));
        assert!(!orders[1].covers("A", "burn"));
    }

    #[test]
    fn bounded_states_pass_the_check() {
        let mut s =
            HealingState::new(WoundKind::Wound, PenaltySchedule::Recovery(WoundRecovery::SoreWounded), u32::MAX);
        s.treated.rest_days = u32::MAX;
        s.treated.second_level_healer_days = 3;
        s.festering =
            Some(Festering { row: FesterOutcome::AddsD6Days, heals_in_days: Some(u32::MAX), dies_in_days: None });
        s.permanent = Penalties::all(-1000);
        assert!(!check_healing(&s).is_empty());
        let b = bound_healing(s);
        assert_eq!(check_healing(&b), Vec::<String>::new());
        assert_eq!((b.total_days, b.days_left), (MAX_HEALING_DAYS, MAX_HEALING_DAYS));
        assert_eq!(b.permanent, Penalties::all(-MAX_PENALTY));
        // A state from the texts' dice comes back as it was.
        let small = HealingState::new(WoundKind::Burn, PenaltySchedule::Fixed(Penalties::all(-2)), 12);
        assert_eq!(bound_healing(small), small);
        assert!(check_healing(&small).is_empty());
    }
}
