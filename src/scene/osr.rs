//! OSR exploration and encounters in the scene file (003, `src/rules/osr.rs`): the scene's
//! rules family, the OSR sheets of the figures (hit points, Charisma, morale or loyalty, what
//! they carry, lights), the encounter table, the points of entry, the GM's hits, the OSR clock
//! and the encounter in progress, so a saved scene continues exactly. docs/osr.md "In a scene"
//! says how the simulation reads them.

use super::format::{Point, Scene};
use super::load::{Checker, MAX_FIGURES, MAX_MOVES_PLAYED, MAX_NAME_CHARS, shown};
use crate::rules::dice::Modifier;
use crate::rules::osr::{
    ATTACK_DICE, CombatEnd, CombatPhase, EncounterSurprise, EntryKind, Hours, ItemKind, MAX_DAMAGE_DICE, MoraleTrigger,
    OsrAttack, OsrClock, OsrSettings, Reaction, ReactionBias, Terrain,
};
use serde::{Deserialize, Serialize};

/// Most entries of an encounter table.
pub const MAX_ENCOUNTER_ENTRIES: usize = 100;
/// Most monsters one encounter brings (they are spawned as figures).
pub const MAX_ENCOUNTER_COUNT: u32 = 50;
/// Most points of entry a scene lists (doors and table edges come on top).
pub const MAX_ENTRY_POINTS: usize = 500;
/// Most GM combat orders (hits, ends) a scene holds.
pub const MAX_COMBAT_ORDERS: usize = 2_000;
/// Most items on one OSR sheet.
pub const MAX_CARRIED: usize = 100;
/// Largest hit points a sheet or an entry may have.
pub const MAX_HP: i32 = 10_000;
/// Largest weight of one carried item, in pounds.
pub const MAX_ITEM_LB: f32 = 10_000.0;
/// Largest Charisma score, reaction modifier magnitude and bias magnitude.
pub const MAX_CHARISMA: i32 = 30;
/// Largest reaction modifier or bias, either way.
pub const MAX_REACTION_MODIFIER: i32 = 12;
/// Largest morale or loyalty score (2d10 shows at most 20).
pub const MAX_MORALE_SCORE: i32 = 20;
/// Most light sources one figure carries.
pub const MAX_LIGHTS: u32 = 100;
/// Most encounters a scene may have had (the monsters' names count them).
pub const MAX_ENCOUNTERS: u32 = MAX_MOVES_PLAYED;
/// Largest feet to the inch `rules.osr.feet_per_inch` may set.
pub const MAX_FEET_PER_INCH: f32 = 1_000.0;
/// Largest number to hit an attack table may give (1 is the least).
pub const MAX_HIT_ON: i32 = 50;
/// Largest attack or damage bonus, either way.
pub const MAX_ATTACK_BONUS: i32 = 20;

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_true(b: &bool) -> bool {
    *b
}

fn yes() -> bool {
    true
}

fn is_zero_i32(v: &i32) -> bool {
    *v == 0
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

fn default_party() -> String {
    "party".to_string()
}

fn default_monsters() -> String {
    "monsters".to_string()
}

fn is_party(s: &String) -> bool {
    s == "party"
}

fn is_monsters(s: &String) -> bool {
    s == "monsters"
}

crate::rules::named_enum! {
    /// Which rules time the scene and run it: Morval moves of `rules.rounds_per_move` rounds,
    /// or OSR turns and rounds (003 "Encounters & Exploration").
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum RulesFamily {
        /// The default: every step is a Morval move; the OSR section is not read.
        #[default]
        Morval => "morval",
        /// Every step is an OSR turn (10 minutes) while exploring, a round (1 minute) in combat.
        Osr => "osr",
    }
}

/// Left out of a saved scene when Morval.
pub fn is_morval(f: &RulesFamily) -> bool {
    *f == RulesFamily::Morval
}

crate::rules::named_enum! {
    /// Where a figure stands in an encounter.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum OsrStanding {
        /// Acting normally.
        #[default]
        Fighting => "fighting",
        /// At 0 hit points or fewer.
        Dead => "dead",
        /// Failed morale and fled ("they will flee if possible").
        Fled => "fled",
        /// Failed morale and gave up ("or surrender if unable").
        Surrendered => "surrendered",
    }
}

fn is_fighting(s: &OsrStanding) -> bool {
    *s == OsrStanding::Fighting
}

/// One item on an OSR sheet, weighed in pounds (003 "Encumbrance").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OsrItem {
    /// What the GM calls it.
    pub name: String,
    /// Weapon, additional armour, acquired (tallied); starting tool, sundry, worn armour (not).
    #[serde(default)]
    pub kind: ItemKind,
    /// Its weight in pounds, 0 to 10000.
    #[serde(default)]
    pub weight_lb: f32,
}

/// A figure's OSR sheet: its hit points, Charisma, morale or loyalty, what it carries, and
/// where it stands in an encounter (written by the simulation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OsrSheet {
    /// The figure's name.
    pub figure: String,
    /// Hit points now (written by the simulation as the GM's hits land).
    pub hp: i32,
    /// Hit points at full health, 1 to 10000.
    pub max_hp: i32,
    /// The Charisma score (the face is the highest, 003 "Reactions").
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub charisma: i32,
    /// The reaction modifier Charisma gives (the text has no table: the figure's own).
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub reaction_modifier: i32,
    /// Morale (a monster) or loyalty (a henchman), 2 to 20; none: does not check (a player's figure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub morale: Option<i32>,
    /// A henchman's leader (a figure with a sheet): the score is loyalty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub henchman_of: Option<String>,
    /// Items weighed in pounds, besides the figure's `inventory`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carried: Vec<OsrItem>,
    /// How the figure's `inventory` (weighed in quabits) counts: tallied unless a kind that is not.
    #[serde(default)]
    pub inventory_kind: ItemKind,
    /// Light sources carried (torches, lanterns): any on the party means "lights in the dungeon".
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub lights: u32,
    /// The referee rules the load allows no movement whatsoever (the table's footnote).
    #[serde(default, skip_serializing_if = "is_false")]
    pub no_movement: bool,
    /// The figure's attack from the scene's table (not in the text: the author's numbers);
    /// none: its hits are the GM's. A monster's is its encounter row's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<OsrAttack>,
    /// Fighting, dead, fled or surrendered (written by the simulation).
    #[serde(default, skip_serializing_if = "is_fighting")]
    pub standing: OsrStanding,
    /// The circumstances already checked for in this encounter (written by the simulation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub morale_checked: Vec<MoraleTrigger>,
}

/// One row of the scene's encounter table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterEntry {
    /// What comes ("goblin"): its monsters are named "NAME E-I" (encounter E, member I).
    pub name: String,
    /// How many, 1 to 50.
    pub count: u32,
    /// Each one's morale score, 2 to 20.
    pub morale: i32,
    /// Each one's hit points, 1 to 10000.
    pub hp: i32,
    /// The referee's biases on the reaction roll, each with its reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reaction_bias: Vec<ReactionBias>,
    /// The reaction the referee already knows; none: rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reaction: Option<Reaction>,
    /// Awareness and surprise overrides (the Knights-of-the-Fang cases, "large, reckless, or conspicuous").
    #[serde(default)]
    pub surprise: EncounterSurprise,
    /// The referee's changes to the morale score, each with its reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub morale_modifiers: Vec<Modifier>,
    /// "No escape and ... killed even if they surrender": they fight to the last.
    #[serde(default, skip_serializing_if = "is_false")]
    pub fights_to_the_last: bool,
    /// They cannot flee: a failed check is a surrender.
    #[serde(default, skip_serializing_if = "is_false")]
    pub cornered: bool,
    /// The referee calls a ceasefire after this many rounds of normal combat; none: only the
    /// GM's orders, slaughter, surrender or retreat end it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ceasefire_after: Option<u32>,
    /// Each monster's attack from the scene's table, written on its sheet as it comes; none:
    /// their hits are the GM's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<OsrAttack>,
}

/// A point of entry the GM lists (corridor ends, portals, anything the doors do not give).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneEntryPoint {
    /// Its name, unique among the entry points.
    pub name: String,
    /// Door, corridor end, table edge or portal.
    #[serde(default)]
    pub kind: EntryKind,
    /// Where it is.
    pub position: Point,
    /// The GM rules it illogical (bricked up, a sheer drop).
    #[serde(default, skip_serializing_if = "is_false")]
    pub illogical: bool,
}

/// A GM's order for a combat: a hit on a figure, or the end of the combat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatOrderEntry {
    /// The encounter it is for (1 is the scene's first).
    pub encounter: u32,
    /// The round it lands in (1 is the surprise round).
    pub round: u32,
    /// The figure hit; none for an order that only ends the combat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Hit points taken off, 0 to 10000.
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub damage: i32,
    /// The combat ends after the round: ceasefire, retreat, ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<CombatEnd>,
}

/// The encounter in progress: who came, the surprise and reaction, where the combat stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterState {
    /// Which encounter of the scene (1 is the first).
    pub number: u32,
    /// The table entry's name.
    pub entry: String,
    /// The monsters' figures, in the order spawned.
    pub monsters: Vec<String>,
    /// The party's figures with sheets as the encounter began.
    pub party: Vec<String>,
    /// The party was surprised (S1).
    #[serde(default, skip_serializing_if = "is_false")]
    pub party_surprised: bool,
    /// The monsters were surprised (S1).
    #[serde(default, skip_serializing_if = "is_false")]
    pub monsters_surprised: bool,
    /// The reaction rolled (or given).
    pub reaction: Reaction,
    /// The combat's step.
    pub phase: CombatPhase,
    /// The combat's round (1 is the surprise round).
    pub round: u32,
    /// The round's acting order, by side (0 the party, 1 the monsters).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub order: Vec<Vec<usize>>,
}

/// The scene's OSR section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OsrSection {
    /// The party's side (figures of it with a sheet are the party).
    #[serde(skip_serializing_if = "is_party")]
    pub party_side: String,
    /// The side the monsters are spawned on.
    #[serde(skip_serializing_if = "is_monsters")]
    pub monster_side: String,
    /// Dungeon (feet) or wilderness (yards).
    pub terrain: Terrain,
    /// Active or resting hours (surprise in the wilderness).
    pub hours: Hours,
    /// The party rests: turns pass without counting towards the wandering check.
    #[serde(skip_serializing_if = "is_false")]
    pub resting: bool,
    /// The party is in full retreat: each moves at its own speed.
    #[serde(skip_serializing_if = "is_false")]
    pub full_retreat: bool,
    /// The party's nominated face; none: the highest Charisma.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face: Option<String>,
    /// Every figure's OSR sheet (the monsters' written by the simulation as they come).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sheets: Vec<OsrSheet>,
    /// What may come: one row drawn, each as likely.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub encounter_table: Vec<EncounterEntry>,
    /// Points of entry besides the doors and table edges.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub entry_points: Vec<SceneEntryPoint>,
    /// Every door of the map (imported portals included) is a point of entry.
    #[serde(skip_serializing_if = "is_true")]
    pub entries_from_doors: bool,
    /// The midpoints of the four table edges are points of entry.
    #[serde(skip_serializing_if = "is_false")]
    pub entries_from_table_edges: bool,
    /// The GM's hits and ends of combat.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub combat_orders: Vec<CombatOrderEntry>,
    /// The OSR clock: minutes, rounds, exploring turns (written by the simulation).
    #[serde(skip_serializing_if = "is_default_clock")]
    pub clock: OsrClock,
    /// Encounters had so far (written by the simulation).
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub encounters_had: u32,
    /// The encounter in progress (written by the simulation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounter: Option<EncounterState>,
}

fn is_default_clock(c: &OsrClock) -> bool {
    *c == OsrClock::default()
}

impl Default for OsrSection {
    fn default() -> Self {
        Self {
            party_side: default_party(),
            monster_side: default_monsters(),
            terrain: Terrain::Dungeon,
            hours: Hours::Active,
            resting: false,
            full_retreat: false,
            face: None,
            sheets: Vec::new(),
            encounter_table: Vec::new(),
            entry_points: Vec::new(),
            entries_from_doors: yes(),
            entries_from_table_edges: false,
            combat_orders: Vec::new(),
            clock: OsrClock::default(),
            encounters_had: 0,
            encounter: None,
        }
    }
}

impl OsrSection {
    /// Nothing set: left out when saved.
    pub fn is_empty(&self) -> bool {
        *self == OsrSection::default()
    }

    /// The sheet of `figure`, if it has one.
    pub fn sheet(&self, figure: &str) -> Option<&OsrSheet> {
        self.sheets.iter().find(|s| s.figure == figure)
    }
}

/// The checks on `rules.osr`.
pub(crate) fn check_settings(settings: &OsrSettings, c: &mut Checker) {
    let f = settings.feet_per_inch;
    if c.finite("rules", "osr feet_per_inch", f) && !(f > 0.0 && f <= MAX_FEET_PER_INCH) {
        c.problem("rules", format!("osr feet_per_inch: {f} must be more than 0 and at most {MAX_FEET_PER_INCH}"));
    }
    let m = settings.moves_per_wandering_check;
    if !(1..=MAX_MOVES_PLAYED).contains(&m) {
        c.problem("rules", format!("osr moves_per_wandering_check: {m} must be 1 to {MAX_MOVES_PLAYED}"));
    }
}

fn name_ok(c: &mut Checker, entity: &str, field: &str, name: &str) {
    if name.trim().is_empty() || name.chars().count() > MAX_NAME_CHARS {
        c.problem(entity, format!("{field}: must be 1 to {MAX_NAME_CHARS} characters"));
    }
}

fn hp_ok(c: &mut Checker, entity: &str, field: &str, hp: i32, min: i32) {
    if !(min..=MAX_HP).contains(&hp) {
        c.problem(entity, format!("{field}: {hp} must be {min} to {MAX_HP}"));
    }
}

fn morale_ok(c: &mut Checker, entity: &str, score: i32) {
    if !(2..=MAX_MORALE_SCORE).contains(&score) {
        c.problem(entity, format!("morale: {score} must be 2 to {MAX_MORALE_SCORE}"));
    }
}

fn biases_ok(c: &mut Checker, entity: &str, biases: &[ReactionBias]) {
    if biases.len() > MAX_ENCOUNTER_ENTRIES {
        c.problem(entity, format!("reaction_bias: {} entries, more than {MAX_ENCOUNTER_ENTRIES}", biases.len()));
    }
    for (i, b) in biases.iter().enumerate() {
        name_ok(c, entity, &format!("reaction_bias[{i}] reason"), &b.reason);
        if b.value.abs() > MAX_REACTION_MODIFIER {
            c.problem(
                entity,
                format!(
                    "reaction_bias[{i}] value: {} must be -{MAX_REACTION_MODIFIER} to {MAX_REACTION_MODIFIER}",
                    b.value
                ),
            );
        }
    }
}

/// The checks on an attack from a scene's table: its dice 1-based single dice, its numbers
/// in bounds.
fn attack_ok(c: &mut Checker, entity: &str, attack: &OsrAttack) {
    let names: Vec<&str> = ATTACK_DICE.iter().map(|d| d.label()).collect();
    for (field, die) in [("roll", attack.roll), ("damage", attack.damage)] {
        if !ATTACK_DICE.contains(&die) {
            c.problem(
                entity,
                format!("attack: {field} {die} must be one of {} (the OSR dice are 1-based)", names.join(", ")),
            );
        }
    }
    if !(1..=MAX_HIT_ON).contains(&attack.hit_on) {
        c.problem(entity, format!("attack: hit_on {} must be 1 to {MAX_HIT_ON}", attack.hit_on));
    }
    for (field, v) in [("bonus", attack.bonus), ("damage_bonus", attack.damage_bonus)] {
        if v.abs() > MAX_ATTACK_BONUS {
            c.problem(entity, format!("attack: {field} {v} must be -{MAX_ATTACK_BONUS} to {MAX_ATTACK_BONUS}"));
        }
    }
    if !(1..=MAX_DAMAGE_DICE).contains(&attack.damage_dice) {
        c.problem(entity, format!("attack: damage_dice {} must be 1 to {MAX_DAMAGE_DICE}", attack.damage_dice));
    }
}

/// The checks on the scene's `osr` section: counts, names, references and bounds.
pub(crate) fn check_scene<'a>(scene: &'a Scene, c: &mut Checker<'a>) {
    check_settings(&scene.rules.osr, c);
    let o = &scene.osr;
    for (field, len, max) in [
        ("sheets", o.sheets.len(), MAX_FIGURES),
        ("encounter_table", o.encounter_table.len(), MAX_ENCOUNTER_ENTRIES),
        ("entry_points", o.entry_points.len(), MAX_ENTRY_POINTS),
        ("combat_orders", o.combat_orders.len(), MAX_COMBAT_ORDERS),
    ] {
        if len > max {
            c.problem("scene", format!("osr {field}: {len} entries, more than the {max} allowed"));
            return;
        }
    }
    name_ok(c, "osr", "party_side", &o.party_side);
    name_ok(c, "osr", "monster_side", &o.monster_side);
    if o.party_side == o.monster_side {
        c.problem("osr", "monster_side: must differ from party_side".into());
    }
    let is_figure = |name: &str| scene.figures.iter().any(|f| f.name == name);
    if let Some(face) = &o.face
        && !o.sheets.iter().any(|s| s.figure == *face)
    {
        c.problem("osr", format!("face: no figure with a sheet is named \"{}\"", shown(face)));
    }
    for (i, s) in o.sheets.iter().enumerate() {
        let e = format!("osr sheet \"{}\"", shown(&s.figure));
        if !is_figure(&s.figure) {
            c.problem(&e, format!("figure: no figure is named \"{}\"", shown(&s.figure)));
        } else if o.sheets[..i].iter().any(|x| x.figure == s.figure) {
            c.problem(&e, "figure: has two sheets".into());
        }
        hp_ok(c, &e, "max_hp", s.max_hp, 1);
        if !(-MAX_HP..=s.max_hp.clamp(1, MAX_HP)).contains(&s.hp) {
            c.problem(&e, format!("hp: {} must be -{MAX_HP} to the max_hp ({})", s.hp, s.max_hp));
        }
        if s.charisma.abs() > MAX_CHARISMA {
            c.problem(&e, format!("charisma: {} must be -{MAX_CHARISMA} to {MAX_CHARISMA}", s.charisma));
        }
        if s.reaction_modifier.abs() > MAX_REACTION_MODIFIER {
            c.problem(
                &e,
                format!(
                    "reaction_modifier: {} must be -{MAX_REACTION_MODIFIER} to {MAX_REACTION_MODIFIER}",
                    s.reaction_modifier
                ),
            );
        }
        if let Some(m) = s.morale {
            morale_ok(c, &e, m);
        }
        if let Some(leader) = &s.henchman_of {
            if *leader == s.figure {
                c.problem(&e, "henchman_of: a figure cannot be its own leader".into());
            } else if !o.sheets.iter().any(|x| x.figure == *leader) {
                c.problem(&e, format!("henchman_of: no figure with a sheet is named \"{}\"", shown(leader)));
            }
            if s.morale.is_none() {
                c.problem(&e, "morale: a henchman needs his loyalty score".into());
            }
        }
        if s.carried.len() > MAX_CARRIED {
            c.problem(&e, format!("carried: {} items, more than {MAX_CARRIED}", s.carried.len()));
        }
        for item in &s.carried {
            name_ok(c, &e, "carried name", &item.name);
            let w = item.weight_lb;
            if c.finite(&e, "carried weight_lb", w) && !(0.0..=MAX_ITEM_LB).contains(&w) {
                c.problem(&e, format!("carried \"{}\" weight_lb: {w} must be 0 to {MAX_ITEM_LB}", shown(&item.name)));
            }
        }
        if s.lights > MAX_LIGHTS {
            c.problem(&e, format!("lights: {} must be 0 to {MAX_LIGHTS}", s.lights));
        }
        if s.morale_checked.len() > MoraleTrigger::ALL.len() {
            c.problem(&e, format!("morale_checked: more than the {} circumstances", MoraleTrigger::ALL.len()));
        }
        if let Some(attack) = &s.attack {
            attack_ok(c, &e, attack);
        }
    }
    for (i, entry) in o.encounter_table.iter().enumerate() {
        let e = format!("encounter \"{}\"", shown(&entry.name));
        name_ok(c, &e, "name", &entry.name);
        if o.encounter_table[..i].iter().any(|x| x.name == entry.name) {
            c.problem(&e, "name: listed twice in the encounter table".into());
        }
        if !(1..=MAX_ENCOUNTER_COUNT).contains(&entry.count) {
            c.problem(&e, format!("count: {} must be 1 to {MAX_ENCOUNTER_COUNT}", entry.count));
        }
        morale_ok(c, &e, entry.morale);
        hp_ok(c, &e, "hp", entry.hp, 1);
        biases_ok(c, &e, &entry.reaction_bias);
        for (field, v) in
            [("monsters_in_six", entry.surprise.monsters_in_six), ("party_in_six", entry.surprise.party_in_six)]
        {
            if let Some(v) = v
                && v > 6
            {
                c.problem(&e, format!("surprise {field}: {v} must be 0 to 6"));
            }
        }
        if entry.morale_modifiers.len() > MAX_ENCOUNTER_ENTRIES {
            c.problem(&e, format!("morale_modifiers: more than {MAX_ENCOUNTER_ENTRIES}"));
        }
        for m in &entry.morale_modifiers {
            name_ok(c, &e, "morale_modifiers reason", &m.reason);
            if m.value.abs() > MAX_MORALE_SCORE {
                c.problem(&e, format!("morale_modifiers value: {} must be -20 to 20", m.value));
            }
        }
        if let Some(n) = entry.ceasefire_after
            && !(1..=MAX_MOVES_PLAYED).contains(&n)
        {
            c.problem(&e, format!("ceasefire_after: {n} must be 1 to {MAX_MOVES_PLAYED}"));
        }
        if let Some(attack) = &entry.attack {
            attack_ok(c, &e, attack);
        }
    }
    for (i, p) in o.entry_points.iter().enumerate() {
        let e = format!("entry point \"{}\"", shown(&p.name));
        name_ok(c, &e, "name", &p.name);
        if o.entry_points[..i].iter().any(|x| x.name == p.name) {
            c.problem(&e, "name: listed twice among the entry points".into());
        }
        c.on_table(&e, "position", p.position);
    }
    for (i, order) in o.combat_orders.iter().enumerate() {
        let e = format!("combat order {}", i + 1);
        if !(1..=MAX_ENCOUNTERS).contains(&order.encounter) {
            c.problem(&e, format!("encounter: {} must be 1 to {MAX_ENCOUNTERS}", order.encounter));
        }
        if !(1..=MAX_MOVES_PLAYED).contains(&order.round) {
            c.problem(&e, format!("round: {} must be 1 to {MAX_MOVES_PLAYED}", order.round));
        }
        match &order.target {
            Some(t) => name_ok(c, &e, "target", t),
            None if order.end.is_none() => {
                c.problem(&e, "target or end: an order hits a figure or ends the combat".into())
            }
            None => {}
        }
        if order.target.is_none() && order.damage != 0 {
            c.problem(&e, "damage: needs a target".into());
        }
        if !(0..=MAX_HP).contains(&order.damage) {
            c.problem(&e, format!("damage: {} must be 0 to {MAX_HP}", order.damage));
        }
    }
    if o.encounters_had > MAX_ENCOUNTERS {
        c.problem("osr", format!("encounters_had: {} is more than {MAX_ENCOUNTERS}", o.encounters_had));
    }
    for (field, v) in
        [("minutes", o.clock.minutes), ("rounds", o.clock.rounds), ("exploring_turns", o.clock.exploring_turns)]
    {
        // Ten minutes a step at most: the clock never passes what the steps can bring.
        if v > MAX_MOVES_PLAYED.saturating_mul(10) {
            c.problem("osr", format!("clock {field}: {v} is more than {}", MAX_MOVES_PLAYED.saturating_mul(10)));
        }
    }
    if let Some(enc) = &o.encounter {
        let e = format!("osr encounter {}", enc.number);
        if enc.number == 0 || enc.number > o.encounters_had {
            c.problem(&e, format!("number: {} must be 1 to encounters_had ({})", enc.number, o.encounters_had));
        }
        if !o.encounter_table.iter().any(|x| x.name == enc.entry) {
            c.problem(&e, format!("entry: no encounter table row is named \"{}\"", shown(&enc.entry)));
        }
        if enc.monsters.len() > MAX_ENCOUNTER_COUNT as usize || enc.party.len() > MAX_FIGURES {
            c.problem(&e, "monsters or party: too many".into());
        }
        for m in enc.monsters.iter().chain(&enc.party) {
            if o.sheet(m).is_none() {
                c.problem(&e, format!("monsters or party: no sheet for \"{}\"", shown(m)));
            }
        }
        if !(1..=MAX_MOVES_PLAYED).contains(&enc.round) {
            c.problem(&e, format!("round: {} must be 1 to {MAX_MOVES_PLAYED}", enc.round));
        }
        if enc.order.len() > 2 || enc.order.iter().flatten().any(|&side| side > 1) {
            c.problem(&e, "order: the sides are 0 (the party) and 1 (the monsters)".into());
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::load::validate;
    use crate::scene::{Scene, scene_to_ron};

    fn scene(osr: &str) -> Scene {
        let text = format!(
            "(version: 1, table: (width: 40, height: 20), rules_family: osr,
              figures: [(name: \"Brand\", position: (5, 5)), (name: \"Ulf\", position: (7, 5))],
              osr: ({osr}))"
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
            "sheets: [(figure: \"Brand\", hp: 8, max_hp: 8, charisma: 13, reaction_modifier: 1, lights: 1,
                       carried: [(name: \"sword\", kind: weapon, weight_lb: 6)],
                       attack: (roll: D20, hit_on: 11, bonus: 1, damage: D6)),
                      (figure: \"Ulf\", hp: 4, max_hp: 5, morale: 7, henchman_of: \"Brand\")],
             encounter_table: [(name: \"goblin\", count: 4, morale: 7, hp: 3,
                                reaction_bias: [(reason: \"goblins hate dwarves\", value: -1)],
                                surprise: (awareness: off_guard), ceasefire_after: 5,
                                attack: (roll: D6, hit_on: 4, damage: D3, damage_dice: 2, ranged: true))],
             entry_points: [(name: \"east tunnel\", kind: corridor_end, position: (39, 10))],
             combat_orders: [(encounter: 1, round: 2, target: \"goblin 1-1\", damage: 3),
                             (encounter: 1, round: 4, end: ceasefire)],
             clock: (minutes: 30, exploring_turns: 3)",
        );
        assert_eq!(problems(&s), Vec::<String>::new());
        assert_eq!(s.rules_family, super::RulesFamily::Osr);
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
            "face: \"Nobody\",
             sheets: [(figure: \"Ghost\", hp: 9, max_hp: 8), (figure: \"Ulf\", hp: 4, max_hp: 5, henchman_of: \"Ulf\"),
                      (figure: \"Brand\", hp: 1, max_hp: 0, carried: [(name: \"ore\", weight_lb: -1)])],
             encounter_table: [(name: \"goblin\", count: 0, morale: 30, hp: 0, surprise: (party_in_six: 7))],
             entry_points: [(name: \"far\", position: (50, 10))],
             combat_orders: [(encounter: 0, round: 1), (encounter: 1, round: 1, damage: 2, end: retreat)]",
        );
        let p = problems(&s);
        for expected in [
            "osr: face",
            "osr sheet \"Ghost\": figure",
            "osr sheet \"Ghost\": hp",
            "osr sheet \"Ulf\": henchman_of",
            "osr sheet \"Ulf\": morale",
            "osr sheet \"Brand\": max_hp",
            "osr sheet \"Brand\": carried \"ore\" weight_lb",
            "encounter \"goblin\": count",
            "encounter \"goblin\": morale",
            "encounter \"goblin\": hp",
            "encounter \"goblin\": surprise party_in_six",
            "entry point \"far\": position",
            "combat order 1: encounter",
            "combat order 1: target or end",
            "combat order 2: damage",
        ] {
            assert!(p.iter().any(|m| m.starts_with(expected)), "{expected}: {p:?}");
        }
    }

    /// An attack from a scene's table: 1-based single dice, numbers in bounds, on a sheet or a row.
    #[test]
    fn attacks_are_checked() {
        let s = scene(
            "sheets: [(figure: \"Brand\", hp: 8, max_hp: 8,
                       attack: (roll: D10, hit_on: 0, bonus: 21, damage: MD, damage_dice: 0)),
                      (figure: \"Ulf\", hp: 5, max_hp: 5,
                       attack: (roll: D20, hit_on: 51, damage: D6, damage_bonus: -21))],
             encounter_table: [(name: \"goblin\", count: 2, morale: 7, hp: 3,
                                attack: (roll: D12, hit_on: 7, damage: D20, damage_dice: 21))]",
        );
        let p = problems(&s);
        for expected in [
            "osr sheet \"Brand\": attack: roll D10 must be one of D3, D4, D6, D8, D12, D20",
            "osr sheet \"Brand\": attack: damage MD must be one of",
            "osr sheet \"Brand\": attack: hit_on 0 must be 1 to 50",
            "osr sheet \"Brand\": attack: bonus 21 must be -20 to 20",
            "osr sheet \"Brand\": attack: damage_dice 0 must be 1 to 20",
            "osr sheet \"Ulf\": attack: hit_on 51",
            "osr sheet \"Ulf\": attack: damage_bonus -21",
            "encounter \"goblin\": attack: damage_dice 21",
        ] {
            assert!(p.iter().any(|m| m.starts_with(expected)), "{expected}: {p:?}");
        }
        assert_eq!(p.len(), 8, "the row's D12 and D20 are fine: {p:?}");
    }

    #[test]
    fn osr_settings_are_checked() {
        let mut s = scene("");
        s.rules.osr.feet_per_inch = 0.0;
        s.rules.osr.moves_per_wandering_check = 0;
        let p = problems(&s);
        assert!(p.iter().any(|m| m.starts_with("rules: osr feet_per_inch")), "{p:?}");
        assert!(p.iter().any(|m| m.starts_with("rules: osr moves_per_wandering_check")), "{p:?}");
    }

    #[test]
    fn ids_are_serde_names() {
        use super::{OsrStanding, RulesFamily};
        for f in RulesFamily::ALL {
            assert_eq!(serde_json::to_value(f).ok(), Some(serde_json::Value::String(f.id().into())));
        }
        for s in OsrStanding::ALL {
            assert_eq!(serde_json::to_value(s).ok(), Some(serde_json::Value::String(s.id().into())));
        }
    }

    /// A Morval scene writes neither the family nor the section.
    #[test]
    fn a_morval_scene_writes_no_osr() {
        let s: Scene = ron::from_str("(version: 1, table: (width: 10, height: 10))").expect("parses");
        let text = scene_to_ron(&s).expect("saves");
        assert!(!text.contains("osr:") && !text.contains("rules_family"), "{text}");
    }
}
