//! The house rules: every setting of the scene's `rules` block whose default the product
//! supplies where the texts are silent, with what the text says and why the default was
//! chosen. `docs/house-rules.md` lists the same entries; `tests::every_house_rule_is_documented`
//! keeps the two in step, and `tests::every_setting_is_classified` makes every setting of
//! [`RulesSettings`](crate::scene::RulesSettings) either a house rule here or a reading of the
//! text (or an engine setting) in [`TEXT_SETTINGS`].
//!
//! A roll modifier that a house rule decides carries [`HOUSE_RULE_TAG`] at the end of its
//! reason ("clothed (house rule)"); the GM view marks such modifiers in the dice log and the
//! hover text. [`HOUSE_RULE_REASONS`] says which setting each tagged reason comes from.

/// One house rule: a setting whose default the texts do not give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HouseRule {
    /// The setting's dotted path in the scene's `rules` block, e.g.
    /// `"traps.morval.clothed_agility"`.
    pub path: &'static str,
    /// The default, as the scene file writes it (`none` for an empty option).
    pub default: &'static str,
    /// What the text says or leaves open, citing the source file and heading.
    pub silent: &'static str,
    /// Why the default is what it is.
    pub why: &'static str,
}

/// What a modifier's reason ends with when a house rule decided it.
pub const HOUSE_RULE_TAG: &str = " (house rule)";

/// What the GM view shows on hover over a house-rule marker.
pub const HOUSE_RULE_HOVER: &str = "house rule: not in the source text; see docs/house-rules.md";

/// A modifier reason tagged as a house rule: `reason` with [`HOUSE_RULE_TAG`] appended.
pub fn house_rule_reason(reason: &str) -> String {
    format!("{reason}{HOUSE_RULE_TAG}")
}

/// Whether a modifier's reason carries the house-rule tag.
pub fn is_house_rule_reason(reason: &str) -> bool {
    reason.ends_with(HOUSE_RULE_TAG)
}

/// Whether the setting at `path` (dotted, in the scene's `rules` block) is a house rule.
pub fn is_house_rule(path: &str) -> bool {
    house_rule(path).is_some()
}

/// The house rule for the setting at `path`, if it is one.
pub fn house_rule(path: &str) -> Option<&'static HouseRule> {
    HOUSE_RULES.iter().find(|h| h.path == path)
}

/// The setting a tagged modifier reason comes from, if the reason is one the rules write.
pub fn house_rule_path(reason: &str) -> Option<&'static str> {
    HOUSE_RULE_REASONS.iter().find(|(r, _)| *r == reason).map(|&(_, path)| path)
}

/// What the GM view shows for a roll's modifiers when a house rule decided any of them: the
/// [`HOUSE_RULE_HOVER`] line, then each tagged reason with the setting it comes from. `None`
/// when no reason carries the tag.
pub fn house_rule_note<'a>(reasons: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut note = String::new();
    for reason in reasons.into_iter().filter(|r| is_house_rule_reason(r)) {
        if note.is_empty() {
            note.push_str(HOUSE_RULE_HOVER);
        }
        note.push('\n');
        note.push_str(reason);
        if let Some(path) = house_rule_path(reason) {
            note.push_str(": ");
            note.push_str(path);
        }
    }
    (!note.is_empty()).then_some(note)
}

/// [`house_rule_note`] for a logged event: its modifiers' note, then `house rule: <path>` for
/// each setting that decided the event without a modifier (the event's `house_rules` in the
/// log). `None` when neither.
pub fn event_house_rule_note<'a>(
    reasons: impl IntoIterator<Item = &'a str>,
    paths: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let mut note = house_rule_note(reasons).unwrap_or_default();
    for path in paths {
        if note.is_empty() {
            note.push_str(HOUSE_RULE_HOVER);
        }
        note.push_str("\nhouse rule: ");
        note.push_str(path);
    }
    (!note.is_empty()).then_some(note)
}

/// Every tagged modifier reason the rules write, with the setting that decides it.
/// `tests::every_tagged_reason_is_mapped` finds the tagged literals in `src/` and checks each
/// is listed here.
pub const HOUSE_RULE_REASONS: &[(&str, &str)] = &[
    ("clothed (house rule)", "traps.morval.clothed_agility"),
    ("5th or later victim (house rule)", "traps.morval.fifth_or_later_factor"),
    ("fifth or later in area (house rule)", "traps.morval.fifth_or_later_factor"),
    ("gloom D/L (house rule)", "traps.morval.gloom_spot_factor"),
    ("darkness DDL (house rule)", "traps.morval.dark_spot_factor"),
    ("pitch black DDD (house rule)", "traps.morval.pitch_black_spot_factor"),
    ("metal armour (house rule)", "traps.morval.leydonic_metal_armour_bonus"),
    ("non-rider (house rule)", "herds.non_rider_catch_modifier"),
    ("steed agility (house rule)", "traps.table.steed_agility"),
    ("alarm called, waking (house rule)", "sleepers.alarm_waking_factor"),
    ("cursing, waking (house rule)", "sleepers.cursing_waking_factor"),
    ("furtive movement, response (house rule)", "sleepers.furtive_movement_response_factor"),
    ("plate movement, response (house rule)", "sleepers.plate_movement_response_factor"),
    ("screeches, response (house rule)", "sleepers.screech_response_factor"),
    ("shouts, response (house rule)", "sleepers.shout_response_factor"),
    ("cursing, response (house rule)", "sleepers.cursing_response_factor"),
    ("2nd-level animal trainer (house rule)", "herds.second_level_trainer_catch_bonus"),
    ("horse, not listed (house rule)", "herds.unlisted_stampede_factor"),
    ("wolf, not listed (house rule)", "herds.unlisted_stampede_factor"),
    ("tired (house rule)", "magic.tired_reduction"),
    ("flesh wounded (house rule)", "magic.flesh_wounded_reduction"),
    ("wounded (house rule)", "magic.wounded_reduction"),
    ("sore wounded (house rule)", "magic.sore_wounded_reduction"),
    ("attempting again (house rule)", "magic.try_again_penalty_cumulative"),
    ("speed under 6\", as 6\"+ (house rule)", "obstacles.slow_riders"),
    ("rope fall onto earth bottom (house rule)", "obstacles.rope_fall_strike"),
    ("rope fall onto rocky bottom (house rule)", "obstacles.rope_fall_strike"),
    ("rope fall onto spiked bottom (house rule)", "obstacles.rope_fall_strike"),
    ("rope fall, extra height (house rule)", "obstacles.rope_fall_strike"),
];

/// Settings that are not house rules: a choice the text itself offers or a reading of its
/// words (`shared/RULES-NOTES.md` "Dice", "Time and movement"), or an engine setting that no
/// rule decides. docs/house-rules.md "Settings that are not house rules" says why for each.
pub const TEXT_SETTINGS: &[&str] = &[
    // Time
    "rounds_per_move",
    "moves_per_day",
    // Traps
    "traps.morval.spot_dice",
    "traps.khemri.complex_table_dice",
    "traps.khemri.simple_trap_strength",
    "traps.khemri.traps_per_player",
    "traps.khemri.traps_modifier",
    // 002 "SKILLS": both readings of "reduce your roll by 1 each time" are the text's.
    "traps.khemri.skill_reduction",
    // Fire and light
    "fire.cell_size",
    // Herds, riders and sleepers
    "sleepers.waking_dice",
    "sleepers.response_dice",
    // Injuries: 000 "Adventurers Apparent 'Death' dicing" and 001 "Saga Apparently Dead
    // Recovery Dicing" are alternatives the texts offer.
    "injuries.apparent_death_text",
    // Magic: 001 "Spell Casting" writes "D6 + MMP – TS" (the literal MMP) and the list gives
    // only "$ success" and "# fail": both defaults are the text's words.
    "magic.general_cast_power",
    "magic.listed_spells_may_try_again",
    // Obstacles: readings of the words of 000 "Sharpened Stakes", "Grapnels, Ropes, and cords"
    // and 001 "Cattle Grids" (docs/house-rules.md "Obstacles").
    "obstacles.foot_melee_from_sharp_side",
    "obstacles.inches_per_het",
    "obstacles.excess_rounding",
    "obstacles.overload_rolls",
    "obstacles.endurance_costs_add_up",
    "obstacles.throw_down_tries",
    "obstacles.half_strength_rounding",
    "obstacles.plank_layers_share_work",
    // OSR: RULES-NOTES's scale and Morval timing, and the text's own plate row (docs/osr.md).
    "osr.feet_per_inch",
    "osr.moves_per_wandering_check",
    "osr.armour_rows.plate",
];

/// Every house rule, by domain (the same order as docs/house-rules.md).
pub const HOUSE_RULES: &[HouseRule] = &[
    // ---- Traps (000 Morval traps) -------------------------------------------------------
    HouseRule {
        path: "traps.morval.clothed_agility",
        default: "1",
        silent: "000 \"Characters and Traps\" > \"Agility\" lists plate, heavy, medium, light and unclothed, not clothed.",
        why: "As light armour (+1): the list runs unclothed +2, light +1, and clothes hamper no more than light armour.",
    },
    HouseRule {
        path: "traps.morval.loosely_concealed_spot_target",
        default: "4",
        silent: "000 \"Spotting Traps\": \"Diced for when within 2\", MD or D6 + F\"; no target per concealment class.",
        why: "RULES-NOTES \"Where a source is silent\": LC 4+, NC 5+, WC 6+, one step per class.",
    },
    HouseRule {
        path: "traps.morval.normally_concealed_spot_target",
        default: "5",
        silent: "000 \"Spotting Traps\": no target per concealment class.",
        why: "RULES-NOTES \"Where a source is silent\": NC 5+.",
    },
    HouseRule {
        path: "traps.morval.well_concealed_spot_target",
        default: "6",
        silent: "000 \"Spotting Traps\": no target per concealment class.",
        why: "RULES-NOTES \"Where a source is silent\": WC 6+, the top of a D6.",
    },
    HouseRule {
        path: "traps.morval.gloom_spot_factor",
        default: "-1",
        silent: "000 \"Spotting Traps\" gives no factor for light.",
        why: "As 000 \"Tracking\": \"Gloomy D/L -1\".",
    },
    HouseRule {
        path: "traps.morval.dark_spot_factor",
        default: "-3",
        silent: "000 \"Spotting Traps\" gives no factor for light.",
        why: "As 000 \"Tracking\": \"Dark DDL -3\".",
    },
    HouseRule {
        path: "traps.morval.pitch_black_spot_factor",
        default: "-3",
        silent: "000 \"Spotting Traps\" gives no factor for light; \"Tracking\" stops at DDL.",
        why: "As DDL (-3): the nearest row the text gives.",
    },
    HouseRule {
        path: "traps.morval.fifth_or_later_factor",
        default: "-3",
        silent: "000 \"Trip cords\" and \"Spotting Traps\": the victim and spotter lists stop at the fourth (-3).",
        why: "Later ones keep the last factor the text gives (-3).",
    },
    HouseRule {
        path: "traps.morval.trip_cord_cursing_heard_to_inches",
        default: "8",
        silent: "000 \"Trip cords\": \"curse loudly\", with no distance.",
        why: "As 000 \"Loop Traps\": cursing \"heard to 8\"\".",
    },
    HouseRule {
        path: "traps.morval.leydonic_metal_armour_bonus",
        default: "2",
        silent: "000 \"Leydonic traps\": \"more effective against those wearing metal armour\", with no number.",
        why: "RULES-NOTES \"Where a source is silent\": +2 against medium, heavy and plate.",
    },
    // ---- Traps (002 Khemri traps) -------------------------------------------------------
    HouseRule {
        path: "traps.khemri.deck_sets",
        default: "4",
        silent: "002 \"Traps\": counters are \"drawn from the deck\" at a ratio of 3:1:1; the deck's size is not given.",
        why: "4 sets of 5 (20 counters): two players at six traps each fit in one deck; refilled with a fresh shuffled deck when it runs out.",
    },
    HouseRule {
        path: "traps.khemri.simple_trap_rearms",
        default: "false",
        silent: "002 \"Traps\" does not say whether a Simple trap works again.",
        why: "A jury-rigged trap is spent once it has gone off.",
    },
    HouseRule {
        path: "traps.khemri.poison_gas_rearms",
        default: "true",
        silent: "002 complex-trap table does not say whether Poison Gas works again.",
        why: "Only the traps the text calls once-only (Boulder, Pit) are spent.",
    },
    HouseRule {
        path: "traps.khemri.fire_trap_rearms",
        default: "true",
        silent: "002 complex-trap table does not say whether the Fire Trap works again.",
        why: "As Poison Gas: only the traps the text calls once-only are spent.",
    },
    HouseRule {
        path: "traps.khemri.boulder_path_saves",
        default: "true",
        silent: "002 Boulder: no armour saves for the model beneath it; silent on the models in its path.",
        why: "The S5 hit on a model in the path takes saves as usual (the Mordheim default).",
    },
    HouseRule {
        path: "traps.khemri.skill_dice",
        default: "two_d6",
        silent: "002 \"Spot/Disarm trap\": \"roll a 6+\" and \"an 8+\" without naming the dice.",
        why: "An 8+ needs more than a D6, so 2D6 (the Mordheim convention).",
    },
    // ---- Traps on the table -------------------------------------------------------------
    HouseRule {
        path: "traps.table.figure_weight",
        default: "1",
        silent: "000 \"Treadle Traps\": \"a creature (above a certain weight?)\"; \"Falling Traps\": \"a certain cubits weight\"; no figure weights.",
        why: "A figure weighs 1 unless it says otherwise, so trap thresholds count figures.",
    },
    HouseRule {
        path: "traps.table.skill_spot_bonus",
        default: "1",
        silent: "000 \"Spotting Traps\": \"Trackers in the wild, Engineers & thieves in buildings\", with no number.",
        why: "+1, the smallest bonus the list uses.",
    },
    HouseRule {
        path: "traps.table.default_initiative",
        default: "3",
        silent: "002 \"Traps\": models test against their I; a figure with no Mordheim profile has none.",
        why: "I3, the Mordheim human's Initiative.",
    },
    HouseRule {
        path: "traps.table.status_moves",
        default: "1",
        silent: "000 \"Trip cords\": \"fall Demoralised\", \"Dazed\", \"Fainted\" with no duration.",
        why: "One move, the shortest a lasting condition can be: the text gives none.",
    },
    HouseRule {
        path: "traps.table.boulder_width",
        default: "1",
        silent: "002 Boulder: rolls along a path; no width.",
        why: "1\", about a base's width.",
    },
    HouseRule {
        path: "traps.table.disarm_counters",
        default: "true",
        silent: "002 \"Spot/Disarm trap\": the hero \"can also attempt to disarm any traps he comes upon\"; whether he does is the player's choice.",
        why: "The simulator has no player to ask, so a figure with the skill always tries.",
    },
    // ---- Traps: pits, payloads, riders --------------------------------------------------
    HouseRule {
        path: "traps.morval.own_side_exempt",
        default: "false",
        silent: "000 exempts nobody: treadles \"can be locked into a safe mode, for when friends need to pass\", loops trap \"areas where friends may well also be caught\".",
        why: "Off is the literal reading; on (the house rule) lets only loops and treadles catch the side that set them.",
    },
    HouseRule {
        path: "traps.morval.spot_checks",
        default: "per_approach",
        silent: "000 \"Spotting Traps\": \"Diced for when within 2\"\" does not say how often.",
        why: "RULES-NOTES \"Where a source is silent\": one roll each time a figure comes within 2\"; per move is the alternative.",
    },
    HouseRule {
        path: "traps.khemri.fire_trap_ignites_ground",
        default: "false",
        silent: "002 \"10-11 - Fire Trap\": an S5 hit and models \"on fire\"; nothing about the ground.",
        why: "Off is the literal reading: only models catch fire; on lets the flame light the ground through the fire rules.",
    },
    HouseRule {
        path: "traps.table.pit_climb",
        default: "initiative_test",
        silent: "002 \"3-4 - Pit\": survivors \"will also have to climb out\", with no rule for it.",
        why: "A Mordheim-style Initiative test each move (D6 <= I), labelled not in the sources; GM frees or a fixed number of moves are the alternatives.",
    },
    HouseRule {
        path: "traps.morval.payload_radius.hail_of_missiles",
        default: "1",
        silent: "000 \"Treadle Traps\": a hail of stones, arrows and javelins, a giant boulder, a cloud of gas, a bucket of acid or a gout of flame \"threatens the victim(s)\"; no area is given.",
        why: "A hail rains on the square inch or so round the trap.",
    },
    HouseRule {
        path: "traps.morval.payload_radius.boulder",
        default: "0.5",
        silent: "000 \"Treadle Traps\": a hail of stones, arrows and javelins, a giant boulder, a cloud of gas, a bucket of acid or a gout of flame \"threatens the victim(s)\"; no area is given.",
        why: "A boulder falls where the trap is.",
    },
    HouseRule {
        path: "traps.morval.payload_radius.gas",
        default: "2",
        silent: "000 \"Treadle Traps\": a hail of stones, arrows and javelins, a giant boulder, a cloud of gas, a bucket of acid or a gout of flame \"threatens the victim(s)\"; no area is given.",
        why: "As 002's poison gas, which reaches models \"within 2\"\".",
    },
    HouseRule {
        path: "traps.morval.payload_radius.acid",
        default: "0.5",
        silent: "000 \"Treadle Traps\": a hail of stones, arrows and javelins, a giant boulder, a cloud of gas, a bucket of acid or a gout of flame \"threatens the victim(s)\"; no area is given.",
        why: "A bucket covers the trap only.",
    },
    HouseRule {
        path: "traps.morval.payload_radius.flame",
        default: "1",
        silent: "000 \"Treadle Traps\": a hail of stones, arrows and javelins, a giant boulder, a cloud of gas, a bucket of acid or a gout of flame \"threatens the victim(s)\"; no area is given.",
        why: "A gout of flame about the trap; the fire it starts is twice that across.",
    },
    HouseRule {
        path: "traps.table.revealed.trip_cord",
        default: "harmless",
        silent: "000 says what a trap does to a victim who has not spotted it; what a revealed or spent trap does is not said.",
        why: "A seen cord is stepped over.",
    },
    HouseRule {
        path: "traps.table.revealed.treadle",
        default: "harmless",
        silent: "000 says what a trap does to a victim who has not spotted it; what a revealed or spent trap does is not said.",
        why: "A seen treadle is stepped round.",
    },
    HouseRule {
        path: "traps.table.revealed.lifter",
        default: "still_fires",
        silent: "000 says what a trap does to a victim who has not spotted it; what a revealed or spent trap does is not said.",
        why: "A lifter under an idol fires when the idol is lifted, seen or not.",
    },
    HouseRule {
        path: "traps.table.revealed.pit",
        default: "avoid",
        silent: "000 says what a trap does to a victim who has not spotted it; what a revealed or spent trap does is not said.",
        why: "A seen pit is an obstacle a path goes round.",
    },
    HouseRule {
        path: "traps.table.revealed.falling_floor",
        default: "harmless",
        silent: "000 says what a trap does to a victim who has not spotted it; what a revealed or spent trap does is not said.",
        why: "A seen floor is not trusted: the figure keeps off the give.",
    },
    HouseRule {
        path: "traps.table.revealed.loop",
        default: "harmless",
        silent: "000 says what a trap does to a victim who has not spotted it; what a revealed or spent trap does is not said.",
        why: "A seen loop is stepped round.",
    },
    HouseRule {
        path: "traps.table.revealed.leydonic",
        default: "harmless",
        silent: "000 says what a trap does to a victim who has not spotted it; what a revealed or spent trap does is not said.",
        why: "A seen leydonic trap is given a wide berth.",
    },
    HouseRule {
        path: "traps.table.open_pit",
        default: "avoid",
        silent: "000 \"Specimen Pit Trap\" is dug in open space; 002 \"3-4 - Pit\": \"there will be a pit ... in the tunnel\"; neither says what a later walker does.",
        why: "A figure that can see an open pit walks round it; `fall_in` walks into it.",
    },
    HouseRule {
        path: "traps.table.open_pit_entry_roll",
        default: "false",
        silent: "The pit table applies \"If not spotted\"; an open pit is not hidden.",
        why: "No roll: a figure that enters an open pit falls.",
    },
    HouseRule {
        path: "traps.table.steed_agility",
        default: "0",
        silent: "000 \"Trip cords\": \"Riders whose Steeds fall, fall off strike -3\": the steed is the victim, but 000 gives steeds no agility.",
        why: "0, an average creature.",
    },
    HouseRule {
        path: "herds.non_rider_falling_dice",
        default: "deduct",
        silent: "000 \"Riders & Animal Trainers\": non-riders \"deduct ... 1 from stampeding & falling dice\"; a lower fall strike is softer, so the literal -1 helps them.",
        why: "The literal reading (-1); `add_to_strike` (+1 to the strike) is the house reading.",
    },
    HouseRule {
        path: "fire.person_rolls",
        default: "per_move",
        silent: "001 \"Persons\": \"D6 +FS (+1 if unclothed)\"; how often a person in fire rolls is not said.",
        why: "Once a move, in the round the fire first reaches the figure; `per_round` rolls every round.",
    },
    HouseRule {
        path: "fire.burns",
        default: "worst_kept",
        silent: "001 \"Persons\" lists minor, bad and severe burns (-1, -2, -3) without saying whether burns from several rolls add up.",
        why: "The worst burn is kept; `summed` adds them.",
    },
    HouseRule {
        path: "lighting.dark_sight_in",
        default: "4",
        silent: "001 \"Lighting\": \"DDL Dark range of vision limited\", no number (DDD: \"2\\\" sight\").",
        why: "Twice DDD's 2\".",
    },
    HouseRule {
        path: "lighting.strong_light_from",
        default: "0.5",
        silent: "001 \"Lighting\" gives the levels, not what a light source does to them.",
        why: "A light at half intensity or more counts as strong.",
    },
    HouseRule {
        path: "lighting.strong_light_steps",
        default: "2",
        silent: "001 \"Lighting\" gives the levels, not what a light source does to them.",
        why: "A lantern or a fire lifts pitch black to gloom (DDD to D/L).",
    },
    HouseRule {
        path: "lighting.weak_light_steps",
        default: "1",
        silent: "001 \"Lighting\" gives the levels, not what a light source does to them.",
        why: "A candle or weak light lifts one level.",
    },
    HouseRule {
        path: "sleepers.fire_noise",
        default: "shout",
        silent: "000 \"Awaking groups asleep\" lists \"Shouts or Screams +4\" and other noises, but no fire.",
        why: "A fire in earshot (crackling, cries) counts as shouts or screams.",
    },
    HouseRule {
        path: "herds.zone_creatures_wander",
        default: "false",
        silent: "000 \"Untethered Steeds and ruminants & herding\": \"Herds & flocks will wander ... D10 -3\\\" per move\"; zone creatures keep \"their zone\" (000 \"Neuserks, Okserks & Chuserks\").",
        why: "Off is the literal reading: only herds, flocks and untethered steeds wander.",
    },
    HouseRule {
        path: "herds.fire_fright_threshold",
        default: "1",
        silent: "001 \"Fire Against people and animals\": \"Fire Strike -3 = Fright Value of fire (0 or less not used.)\", but not what a fright value does to a herd.",
        why: "Every fright value the text uses (1 and up) turns livestock.",
    },
    HouseRule {
        path: "sleepers.heard_to_in_shelter",
        default: "proportional",
        silent: "000 gives \"heard to\" distances (cursing 8\", screaming 18\", a sneeze 9\") and shelter earshots (6\" open, 4\" tent, 2\" building) but not how they combine.",
        why: "Scaled as the earshot is (x earshot / 6): a scream 18\" in the open, 12\" in a tent, 6\" in a building.",
    },
    HouseRule {
        path: "traps.table.hanging_moves",
        default: "1",
        silent: "000 \"Specimen Pit Trap\": \"hanging on far edge\", \"hanging on near edge\", with no duration.",
        why: "One move, then the figure has pulled itself up; `none` leaves it until the GM frees it.",
    },
    // ---- Fire and light -----------------------------------------------------------------
    HouseRule {
        path: "fire.oil_fire_resistance",
        default: "-2",
        silent: "001 \"Fire Resistances\" has no row for oil (the FSR list has one).",
        why: "-2, the most flammable value the table uses: oil has the fastest spread rate.",
    },
    HouseRule {
        path: "fire.brushwood_fire_resistance",
        default: "-1",
        silent: "001 \"Fire Resistances\" has no row for brushwood.",
        why: "Between haystack (-2) and heaped loose timber (0): dry small wood, FSR 0.5\".",
    },
    HouseRule {
        path: "fire.cloth_fire_resistance",
        default: "0",
        silent: "001 \"Fire Resistances\" has no row for cloth.",
        why: "As bushes & foliage, which share its spread rate (0.3\").",
    },
    HouseRule {
        path: "fire.trees_fire_resistance",
        default: "2",
        silent: "001 \"Fire Resistances\" has no row for trees.",
        why: "Their spread rate (0.2\") lies between bushes (FR 0) and solid timber (FR +3).",
    },
    HouseRule {
        path: "fire.heaped_loose_timber_spread_rate",
        default: "0.2",
        silent: "001 \"Fire Spreading\" has no rate for heaped loose timber.",
        why: "Between brushwood (0.5\") and solid timber (0.1\").",
    },
    HouseRule {
        path: "fire.half_timbered_building_spread_rate",
        default: "0.1",
        silent: "001 \"Fire Spreading\" has no rate for half-timbered buildings.",
        why: "As solid timber, its frame.",
    },
    HouseRule {
        path: "fire.fire_strike_under_smallest_fire",
        default: "1",
        silent: "001 \"Held Igniters\": fire sizes start at \"0.3\" diameter fire +2\".",
        why: "As burning wood (+1): a fire that small is a handful of flame.",
    },
    HouseRule {
        path: "fire.burn_out.oil",
        default: "2",
        silent: "001 \"Fire Spreading\" gives no burning time.",
        why: "RULES-NOTES \"Fire burn-out\": oil flares and is gone.",
    },
    HouseRule {
        path: "fire.burn_out.hay",
        default: "3",
        silent: "001 \"Fire Spreading\" gives no burning time.",
        why: "RULES-NOTES \"Fire burn-out\": Hay/Corn 3.",
    },
    HouseRule {
        path: "fire.burn_out.standing_corn",
        default: "3",
        silent: "001 \"Fire Spreading\" gives no burning time.",
        why: "RULES-NOTES \"Fire burn-out\": Hay/Corn 3.",
    },
    HouseRule {
        path: "fire.burn_out.heaped_loose_timber",
        default: "10",
        silent: "001 \"Fire Spreading\" gives no burning time; RULES-NOTES has none for heaped loose timber either.",
        why: "Between brushwood (4) and solid timber (30): logs and planks are thicker than brushwood but open to the air.",
    },
    HouseRule {
        path: "fire.burn_out.brushwood",
        default: "4",
        silent: "001 \"Fire Spreading\" gives no burning time.",
        why: "RULES-NOTES \"Fire burn-out\": Brushwood 4.",
    },
    HouseRule {
        path: "fire.burn_out.thatch",
        default: "6",
        silent: "001 \"Fire Spreading\" gives no burning time.",
        why: "RULES-NOTES \"Fire burn-out\": Thatch 6.",
    },
    HouseRule {
        path: "fire.burn_out.cloth",
        default: "2",
        silent: "001 \"Fire Spreading\" gives no burning time.",
        why: "RULES-NOTES \"Fire burn-out\": Cloth 2.",
    },
    HouseRule {
        path: "fire.burn_out.bushes_and_foliage",
        default: "4",
        silent: "001 \"Fire Spreading\" gives no burning time.",
        why: "RULES-NOTES \"Fire burn-out\": Bushes 4.",
    },
    HouseRule {
        path: "fire.burn_out.trees",
        default: "20",
        silent: "001 \"Fire Spreading\" gives no burning time.",
        why: "RULES-NOTES \"Fire burn-out\": Trees 20.",
    },
    HouseRule {
        path: "fire.burn_out.solid_timber",
        default: "30",
        silent: "001 \"Fire Spreading\" gives no burning time.",
        why: "RULES-NOTES \"Fire burn-out\": Solid timber 30.",
    },
    HouseRule {
        path: "fire.burn_out.half_timbered_building",
        default: "40",
        silent: "001 \"Fire Spreading\" gives no burning time.",
        why: "RULES-NOTES \"Fire burn-out\": half-timbered 40.",
    },
    HouseRule {
        path: "fire.house_area",
        default: "16",
        silent: "001 \"Fire Against people and animals\": \"Small Burning building\" FV2, house FV3, large building FV4, with no sizes.",
        why: "A burning building region of at least 16 square inches (a 4\" square) is a house; smaller is a small building.",
    },
    HouseRule {
        path: "fire.large_building_area",
        default: "150",
        silent: "001 \"Fire Against people and animals\": a large building, with no size.",
        why: "From 150 square inches (about 12\" square) a burning building is a large building.",
    },
    // ---- Herds, riders and sleepers -----------------------------------------------------
    HouseRule {
        path: "herds.non_rider_catch_modifier",
        default: "-1",
        silent: "000 \"Untethered Steeds and ruminants & herding\": catching \"depends on rider's skill\", with no number.",
        why: "As 000 \"Riders & Animal Trainers\": non-riders deduct 1 from stampeding and falling dice.",
    },
    HouseRule {
        path: "herds.second_level_trainer_catch_bonus",
        default: "1",
        silent: "000 \"Riders & Animal Trainers\": \"2nd level animal trainers can break in wild horses\"; no catching bonus.",
        why: "+1 for the trainer who breaks in horses; a rider (1st level) takes nothing.",
    },
    HouseRule {
        path: "herds.unlisted_stampede_factor",
        default: "0",
        silent: "001 \"Cattle Grids\" lists cows, sheep, goats and pigs; not horses or wolves.",
        why: "0: no factor the text does not give.",
    },
    HouseRule {
        path: "herds.planks_let_livestock_cross",
        default: "true",
        silent: "001 \"Cattle Grids\": planks are needed \"to allow horse drawn vehicles to cross\"; silent on livestock.",
        why: "Planks bridge the grid for anything that walks on them.",
    },
    HouseRule {
        path: "herds.grid_hurt_lasts_moves",
        default: "none",
        silent: "001 \"Cattle Grids\": a hurt beast is \"-1\" to all moves\", with no duration.",
        why: "For the rest of the scene: the most literal reading.",
    },
    HouseRule {
        path: "herds.grid_escape_attempts_per_move",
        default: "1",
        silent: "001 \"Cattle Grids\": \"D6 5+ to escape\", without saying how often.",
        why: "Once a move, as the herd rules' other rolls.",
    },
    HouseRule {
        path: "herds.herding_reach_in",
        default: "6",
        silent: "000 \"Untethered Steeds and ruminants & herding\" > \"Herding\" gives no reach.",
        why: "6\", a man's basic move: a herder can reach the herd within a move.",
    },
    HouseRule {
        path: "herds.stampede_move_in",
        default: "10",
        silent: "001 \"Cattle Grids\" names stampedes but gives no speed.",
        why: "10\" a move: a beast's headlong run; the text gives no speed to build on.",
    },
    HouseRule {
        path: "herds.free_stuck_reach_in",
        default: "1",
        silent: "001 \"Cattle Grids\": a stuck beast needs \"help to be freed\", with no reach.",
        why: "Any figure ending its move within 1\" of the beast frees it.",
    },
    HouseRule {
        path: "sleepers.alarm_waking_factor",
        default: "4",
        silent: "000 \"Awaking groups asleep\" has no row for an alarm called (the response table has one).",
        why: "As \"Shouts or Screams +4\".",
    },
    HouseRule {
        path: "sleepers.cursing_waking_factor",
        default: "1",
        silent: "000 \"Awaking groups asleep\" has no row for cursing.",
        why: "As \"speech\" (+1).",
    },
    HouseRule {
        path: "sleepers.furtive_movement_response_factor",
        default: "0",
        silent: "000 \"Woken sleepers response\" has no row for furtive movement.",
        why: "As \"Movement\" (0), the table's lowest noise still going on.",
    },
    HouseRule {
        path: "sleepers.plate_movement_response_factor",
        default: "1",
        silent: "000 \"Woken sleepers response\" names \"heavy movement\", not plate.",
        why: "As heavy movement (+1), as the waking table groups them.",
    },
    HouseRule {
        path: "sleepers.screech_response_factor",
        default: "2",
        silent: "000 \"Woken sleepers response\" has no row for screeches.",
        why: "As \"Clash of weapons\" (+2), as the waking table groups them.",
    },
    HouseRule {
        path: "sleepers.shout_response_factor",
        default: "3",
        silent: "000 \"Woken sleepers response\" has no row for shouts.",
        why: "As \"Screams\" (+3), as the waking table groups them.",
    },
    HouseRule {
        path: "sleepers.cursing_response_factor",
        default: "1",
        silent: "000 \"Woken sleepers response\" has no row for cursing.",
        why: "As \"speech\" (+1).",
    },
    HouseRule {
        path: "sleepers.running_noise",
        default: "heavy_movement",
        silent: "000 \"Awaking groups asleep\" does not rate running.",
        why: "Heavy movement (+1): louder than movement, quieter than clashing weapons.",
    },
    HouseRule {
        path: "sleepers.armour_heard_through_furtive_gait",
        default: "true",
        silent: "000 \"Awaking groups asleep\" rates furtive movement and heavy or plate movement, not both at once.",
        why: "Armour clanks whatever the gait.",
    },
    HouseRule {
        path: "sleepers.wall_stacking",
        default: "sum",
        silent: "000 \"Awaking groups asleep\": \"Inner wall between -1, outer wall between -2\", for one wall.",
        why: "Every wall counts: each muffles the noise further.",
    },
    HouseRule {
        path: "sleepers.light_armour_hasty_rounds",
        default: "3",
        silent: "000 \"Dressing & Undressing\" lists unclothed, clothed, medium, heavy and plate, not light armour.",
        why: "As medium (3): worn over clothes and laced or buckled like mail.",
    },
    HouseRule {
        path: "sleepers.group_hearing",
        default: "keenest",
        silent: "000 \"Awaking groups asleep\" gives the factor per hearer (\"Acute hearer +1\") but rolls for the group.",
        why: "The keenest hearer still asleep counts: the keenest wake first.",
    },
    HouseRule {
        path: "sleepers.waking_checks",
        default: "each_source",
        silent: "000 \"Awaking groups asleep\": \"Diced for within 6\"...\", without saying how often.",
        why: "Once for each noise source in earshot: a party of four is four chances to wake the camp.",
    },
    HouseRule {
        path: "sleepers.listeners_respond",
        default: "true",
        silent: "000 \"Woken sleepers response\": \"3+ listen awake D6 moves\"; silent on what a listener hears.",
        why: "A listener awake hears every noise in earshot without a waking roll and responds afresh.",
    },
    HouseRule {
        path: "sleepers.investigator_spots_within",
        default: "2",
        silent: "000 \"Woken sleepers response\": \"4+ investigate\", with no rule for what the investigator finds.",
        why: "Within 2\" with no wall between, as the 2\" of \"Spotting Traps\"; the investigator raises the alarm.",
    },
    // ---- Injuries -------------------------------------------------------------------------
    HouseRule {
        path: "injuries.out_of_action",
        default: "left_for_dead",
        silent: "002 takes a model \"out of action\" at its last wound; neither 000 nor 001 says what becomes of it after the action.",
        why: "000 \"Adventurers Apparent 'Death' dicing\" is \"For those characters left for dead\", thrown \"at the end of an action when able to check bodies\": the nearest the texts give; `ignored` leaves the model to the GM.",
    },
    // ---- Temptations ----------------------------------------------------------------------
    HouseRule {
        path: "temptations.reach_in",
        default: "3",
        silent: "000 \"Temptations and Weaknesses\" lists what tempts, not from how far.",
        why: "3\": across a street to a shop front; a site may give its own `reach`.",
    },
    HouseRule {
        path: "temptations.fencing_bands",
        default: "narrower_first",
        silent: "000 \"Temptations and Weaknesses\", Fencing school: \"-1- fight, -3- watch\", bands that overlap below -3.",
        why: "The one reading in which all three outcomes occur: 0+ neither, -1 and -2 fight, -3 or less watch.",
    },
    HouseRule {
        path: "temptations.weakness_factors_on_leave",
        default: "true",
        silent: "000 \"Temptations and Weaknesses\": \"dice each move to leave, applying only weakness factors\" without saying whether a weakness's -2 is one of them.",
        why: "The literal words: the weakness's factor counts on the roll to leave.",
    },
    HouseRule {
        path: "temptations.lechery_at_red_light",
        default: "true",
        silent: "000 \"Weaknesses\": \"Lechery -2 to harlots and striptease lures\" does not name the red-light premises.",
        why: "The harlots are on the premises.",
    },
    HouseRule {
        path: "temptations.vanity_at_jewellery",
        default: "true",
        silent: "000 \"Weaknesses\": \"Vanity in appearance -2 to temptations. (Mirror, clothes etc:)\".",
        why: "Jewellery is the \"etc\" of appearance.",
    },
    // ---- Prisoners -------------------------------------------------------------------------
    HouseRule {
        path: "prisoners.mixed_escort",
        default: "separate_guards",
        silent: "000 \"Guarding prisoners\": \"one guard per 3 men or 5 women\" says nothing of an escort of both.",
        why: "The literal \"or\": each guard watches men or women, never both; `shared_guards` shares a guard by thirds and fifths.",
    },
    HouseRule {
        path: "prisoners.each_blocked_side_counts",
        default: "false",
        silent: "000 \"Guarding prisoners\": \"One side blocked by physical feature +1\" names one side.",
        why: "The text gives +1 for a blocked side, so +1 however many are blocked.",
    },
    HouseRule {
        path: "prisoners.dice_when_halted",
        default: "false",
        silent: "000 \"Guarding prisoners\": \"Moving prisoners with bound hands ... D10 +F per move\" says nothing of a halted escort.",
        why: "The rule is for moving prisoners: a move in which no one of the escort walks rolls no escape dice.",
    },
    HouseRule {
        path: "prisoners.dice_again",
        default: "extra_roll",
        silent: "000 \"Guarding prisoners\": \"0- a prisoner runs off and dice again\" does not say whether the extra roll counts against the excess.",
        why: "The dice are rolled again: after a runaway the same excess prisoner rolls again, until a 1+ or no one is left.",
    },
    HouseRule {
        path: "prisoners.runner",
        default: "random",
        silent: "000 \"Guarding prisoners\": \"a prisoner runs off\" does not say which.",
        why: "Any prisoner still present, each as likely, drawn from the move's dice.",
    },
    HouseRule {
        path: "prisoners.just_run_includes_previous_move",
        default: "false",
        silent: "000 \"Guarding prisoners\": \"prisoner just run -1\" gives no time.",
        why: "The roll after a runaway is the \"dice again\" of the same move: \"just\" is within the move.",
    },
    HouseRule {
        path: "prisoners.gives_up_for_good",
        default: "true",
        silent: "000 \"Guarding prisoners\": \"0 give up too secure\" does not say for how long.",
        why: "\"Too secure\" is about the bonds: he gives up on these bonds.",
    },
    HouseRule {
        path: "prisoners.undo_order",
        default: "feet_first",
        silent: "000 \"Guarding prisoners\": \"one binding per round including feet and gags\" gives no order.",
        why: "The text's order: feet, then the gag.",
    },
    HouseRule {
        path: "prisoners.second_person_helps_catch",
        default: "false",
        silent: "000 \"Catching, runaways, and overpowering\": \"If a second person aids the guard\" follows \"Once caught, continue struggle\".",
        why: "Where the text puts the line: the second person aids in the struggle, not the catch.",
    },
    HouseRule {
        path: "prisoners.mean_rounding",
        default: "exact",
        silent: "000 \"Catching, runaways, and overpowering\": \"mean and add +3 as with melees\"; the melee rules are not in the sources.",
        why: "The mean as written, the half kept.",
    },
    HouseRule {
        path: "prisoners.struggle_minus_breaks_clear",
        default: "false",
        silent: "000 \"Catching, runaways, and overpowering\": the struggle's only row is \"Guard +3 to tie hands and gain control\".",
        why: "Below +3 the struggle goes on; the catch's \"minuses give inches F clear\" is not carried over.",
    },
    HouseRule {
        path: "prisoners.knocked_down_stays_down",
        default: "true",
        silent: "000 \"Catching, runaways, and overpowering\": \"caught & knocked down\" gives no getting up.",
        why: "Down (-2) for the whole struggle, as nothing lifts him.",
    },
    HouseRule {
        path: "prisoners.berserk_without_enemy",
        default: "keeps_raging",
        silent: "000 \"Berserking\": \"continue to attack any enemy standing within 12\" until they collapse exhausted\" names no other end.",
        why: "Only collapse ends the rage.",
    },
    HouseRule {
        path: "prisoners.rage_fatigue_per_move",
        default: "0",
        silent: "000 \"Berserking\": \"costing one fatigue point\" is for the building move.",
        why: "The text charges the building move only; running costs its own point (RULES-NOTES \"Time and movement\").",
    },
    HouseRule {
        path: "prisoners.berserk_exhaustion_point",
        default: "6",
        silent: "000 \"Berserking\": \"until they collapse exhausted\"; no source gives a fatigue endurance.",
        why: "The building move's point and five moves of charging at a run, about a quarter of an hour of rage; a figure may give its own.",
    },
    HouseRule {
        path: "prisoners.supervision_reach_in",
        default: "6",
        silent: "000 \"Guarding prisoners\": bound prisoners work their bonds \"if left unsupervised\", with no distance.",
        why: "Unsupervised when none of his guards, free and able to move, is within a basic move (6\") of him.",
    },
    // ---- Tracking ---------------------------------------------------------------------------
    HouseRule {
        path: "tracking.guessed_direction",
        default: "any_direction",
        silent: "000 \"Tracking\": \"tracker moves 3\" next move in guessed direction\", without saying how the guess is made.",
        why: "A guess carries no knowledge of where the prey went: any whole degree from the dice; `onward` keeps the trail's last heading.",
    },
    HouseRule {
        path: "tracking.uncertain_move",
        default: "next_move",
        silent: "000 \"Tracking\": \"4 prey was here but direction uncertain, tracker moves 3\" next move\".",
        why: "The literal \"next move\": the tracker stays where the prey was the move of the 4 and guesses the move after; `this_move` guesses at once.",
    },
    HouseRule {
        path: "tracking.pick_up_at_least",
        default: "5",
        silent: "000 \"Tracking\": \"can only follow the track if within 1\" and the dice score is high enough\", with no score.",
        why: "5 is the lowest row that follows the trail.",
    },
    HouseRule {
        path: "tracking.search_again",
        default: "ahead_on_trail",
        silent: "000 \"Scent Tracking\": \"must search again at least 3\" away from loss point\" gives the distance, not the place.",
        why: "Hounds lose the scent at a ford and find it across the water: the first point of the trail at least 3\" on and more than 1\" from water; `random_cast` goes 3\" in a direction from the dice.",
    },
    HouseRule {
        path: "tracking.search_again_in",
        default: "3",
        silent: "000 \"Scent Tracking\": \"at least 3\"\", a least, not a distance.",
        why: "The text's least; never less.",
    },
    HouseRule {
        path: "tracking.crossing_trails",
        default: "ignored",
        silent: "000 \"Tracking\" and \"Scent Tracking\" are silent on trails of several quarries crossing (\"known to GM\", \"GM will know scent path\").",
        why: "The text gives no factor for crossings: the tracker follows his own quarry; `confused` and `follow_fresher` are the alternatives.",
    },
    HouseRule {
        path: "tracking.sneeze_noise",
        default: "screech",
        silent: "000 \"Pepper trap\": \"sneeze violently (heard to 9\")\"; the waking table lists no sneeze.",
        why: "A violent sneeze is a sudden sharp noise: a screech (+2 waking), heard to the text's 9\".",
    },
    HouseRule {
        path: "tracking.sneezes_each_move",
        default: "false",
        silent: "000 \"Pepper trap\": \"moving into one draught of pepper ... sneeze violently\" says nothing of later moves.",
        why: "The text's one sneeze, on moving in.",
    },
    HouseRule {
        path: "tracking.pepper_radius_in",
        default: "0.5",
        silent: "000 \"Pepper trap\": \"one draught of pepper laid on the trail\", with no size.",
        why: "Half an inch, a pinch across the trail; a draught may give its own `radius_in`.",
    },
    // ---- Magic and occult wards -----------------------------------------------------------
    HouseRule {
        path: "magic.tired_reduction",
        default: "1",
        silent: "001 \"MAGIC!\": the MMP \"is reduced if the Magician is tired or wounded\", with no number.",
        why: "One point, as a fatigue point is one.",
    },
    HouseRule {
        path: "magic.flesh_wounded_reduction",
        default: "1",
        silent: "001 \"MAGIC!\": \"or wounded\", with no number.",
        why: "001 \"Wound Recoveries\": \"Flesh wounded D6 days at –1\".",
    },
    HouseRule {
        path: "magic.wounded_reduction",
        default: "1",
        silent: "001 \"MAGIC!\": \"or wounded\", with no number.",
        why: "001 \"Wound Recoveries\": wounded \"first half –1 and second –1\".",
    },
    HouseRule {
        path: "magic.sore_wounded_reduction",
        default: "3",
        silent: "001 \"MAGIC!\": \"or wounded\", with no number.",
        why: "001 \"Wound Recoveries\": \"Sore wounded (-3)\".",
    },
    HouseRule {
        path: "magic.general_cast_cost",
        default: "target",
        silent: "001 \"Spell Casting\": \"the Target (TS) of Magic Power Units (MPUs) needed\"; \"After a spell has been cast, Magic Power is recovered\"; no cost is given.",
        why: "The TS MPUs the spell needed are used up (no more than he has); `nothing` is the alternative.",
    },
    HouseRule {
        path: "magic.listed_spell_cost",
        default: "all_magic_power",
        silent: "001 \"Spells\": each adds \"MP\" to the die and gives no cost.",
        why: "The spell draws on the Magic Power its roll added, which then \"is recovered at 1 per move\"; `one_point` and `nothing` are the alternatives.",
    },
    HouseRule {
        path: "magic.try_again_penalty_cumulative",
        default: "false",
        silent: "001 \"Spell Casting\": \"attempt again immediately at a cost of 1 fatigue point and deducting 1 from the dice\", for one attempt again.",
        why: "The same words each time: every attempt again −1 and a fatigue point.",
    },
    HouseRule {
        path: "magic.ghost_rows_lll_factor",
        default: "-5",
        silent: "001 \"Spells\": Summon a Ghost, Call for a suspected ghost, Reveal Occult Presence: \"SUN -6, DLL -4\", no LLL.",
        why: "Between SUN and DLL.",
    },
    HouseRule {
        path: "magic.gremlin_rows_lll_factor",
        default: "-3",
        silent: "001 \"Spells\": Gremlin, Demon and both curses: \"SUN -3, DLL -2\", no LLL.",
        why: "Halfway is −2½; daylight is daylight, so as SUN.",
    },
    HouseRule {
        path: "magic.people_beyond_five",
        default: "continue_row",
        silent: "001 \"Spells\": \"2 people -1, 3 -2, 4 -3, 5 -4\" stops at five.",
        why: "The row's own step goes on (6 present: −5); `as_five` keeps −4.",
    },
    HouseRule {
        path: "magic.ward_test.dice",
        default: "D6",
        silent: "001 \"Occult Wards\": silver is \"diced D6 within 6”\"; garlic and wolf's bane name no die.",
        why: "Silver's D6 for all three wards.",
    },
    HouseRule {
        path: "magic.ward_test.target",
        default: "1",
        silent: "001 \"Occult Wards\" gives each ward's FV against each being, not the test.",
        why: "Die − FV against 1+, as \"D6 + MMP – TS = 1+\"; below, the being is repelled.",
    },
    HouseRule {
        path: "magic.occult_fright_test.dice",
        default: "D6",
        silent: "001 \"Occult Wards\": \"Adds 1 to ADT dicing against occult Frights\"; the test is in neither source.",
        why: "A D6, the die of the wards; a scene supplies its own.",
    },
    HouseRule {
        path: "magic.occult_fright_test.target",
        default: "1",
        silent: "001 \"Occult Wards\": the fright test and the beings' FVs are in neither source.",
        why: "Die − FV (+1 for a ward) against 1+, as the wards; a scene supplies its own.",
    },
    HouseRule {
        path: "magic.presence_reach_in",
        default: "6",
        silent: "001 \"Spells\": \"2 people present -1\", \"Victim present +1\", \"others present -1\": \"present\" has no distance.",
        why: "6\", the longest reach the magic text gives (silver \"within 6”\"): a room's width.",
    },
    // ---- Obstacles and climbing -----------------------------------------------------------
    HouseRule {
        path: "obstacles.glass_wall_dice",
        default: "D6",
        silent: "001 \"Climbing over High broken glass topped walls\": \"Pst AvD –2 (+1 if cloth or newspaper used)\"; \"Pst AvD\" is explained nowhere.",
        why: "\"AvD\" reads as an average die, a six-sided die; the product has no average die, so a plain D6.",
    },
    HouseRule {
        path: "obstacles.glass_wall_target",
        default: "3",
        silent: "001 \"Climbing over High broken glass topped walls\": no target is given.",
        why: "The running roll of 001 \"Cattle Grids\", \"Running D6 3+ OK\": over on 5 or 6, with cloth 4 to 6.",
    },
    HouseRule {
        path: "obstacles.glass_wall_rounds_per_try",
        default: "2",
        silent: "001 \"Climbing over High broken glass topped walls\": no time is given.",
        why: "One try a move (RULES-NOTES: a move is 2 rounds).",
    },
    HouseRule {
        path: "obstacles.rope_climb_rounds",
        default: "2",
        silent: "000 \"Grapnels, Ropes, and cords\": ropes and grapnels are \"for climbing\", but no time for a climb is given.",
        why: "A move (RULES-NOTES: a move is 2 rounds), as a try at a glass-topped wall: up in the rounds' even steps, over at the top.",
    },
    HouseRule {
        path: "obstacles.rope_fall_strike",
        default: "as_pit_fall",
        silent: "000 \"Grapnels, Ropes, and cords\": no strike for a climber falling from a rope.",
        why: "The nearest row the text gives, 000 \"Specimen Pit Trap\": D10 + the ground's pit strike for 1\" + 1 per extra whole inch; `not_rolled` reports the height only.",
    },
    HouseRule {
        path: "obstacles.slow_riders",
        default: "no_strike",
        silent: "000 \"Sharpened Stakes\": \"speed 15\"+ strike -4, 10\"+ strike -5, 6\"+ strike -6\": no row under 6\".",
        why: "The literal rows; `as_six_inches` gives a tagged −6.",
    },
    HouseRule {
        path: "obstacles.weights.light_rope",
        default: "0.25",
        silent: "000 \"Grapnels, Ropes, and cords\" gives no weights of ropes, cords or grapnels.",
        why: "4 kilos of light rope, six hets.",
    },
    HouseRule {
        path: "obstacles.weights.permanent_rope",
        default: "0.5",
        silent: "000 \"Grapnels, Ropes, and cords\" gives no weights.",
        why: "Twice the light rope, for twice its strength.",
    },
    HouseRule {
        path: "obstacles.weights.ships_grapnel_rope",
        default: "0.5",
        silent: "000 \"Grapnels, Ropes, and cords\" gives no weights.",
        why: "As the permanent rope, the same strength.",
    },
    HouseRule {
        path: "obstacles.weights.mooring_rope",
        default: "1",
        silent: "000 \"Grapnels, Ropes, and cords\" gives no weights.",
        why: "Twice again, for 20 quabits.",
    },
    HouseRule {
        path: "obstacles.weights.cord_ball",
        default: "0.0625",
        silent: "000 \"Grapnels, Ropes, and cords\" gives no weights.",
        why: "A kilo of cord.",
    },
    HouseRule {
        path: "obstacles.weights.grapnel",
        default: "0.25",
        silent: "000 \"Grapnels, Ropes, and cords\" gives no weights.",
        why: "4 kilos of iron.",
    },
    // ---- OSR exploration and encounters (issue 24, docs/osr.md) ---------------------------
    HouseRule {
        path: "osr.armour_rows.light",
        default: "none",
        silent: "003 \"Encumbrance\": \"use the worst of the two movement values\"; only plate's speed is given.",
        why: "No row: the weight alone sets the speed until a table gives light armour one.",
    },
    HouseRule {
        path: "osr.armour_rows.medium",
        default: "none",
        silent: "003 \"Encumbrance\": only plate's speed is given.",
        why: "No row: the weight alone sets the speed until a table gives medium armour one.",
    },
    HouseRule {
        path: "osr.armour_rows.heavy",
        default: "none",
        silent: "003 \"Encumbrance\": only plate's speed is given.",
        why: "No row: the weight alone sets the speed until a table gives heavy armour one.",
    },
    HouseRule {
        path: "osr.initiative_ties",
        default: "simultaneous",
        silent: "003 \"Combat Structure\": \"the highest scoring side acts first\"; ties are not mentioned.",
        why: "With a tie no side is highest, so none acts first: tied sides act together.",
    },
    HouseRule {
        path: "osr.morale_recheck",
        default: "new_trigger",
        silent: "003 \"Morale & Loyalty\" says when a check is made, not whether it is made again.",
        why: "Once for each circumstance, the first time it arises: the fewest checks the words allow.",
    },
    HouseRule {
        path: "osr.fights_at",
        default: "hostile",
        silent: "003 \"Reactions\" lists possible actions (\"Attack, offer horrible deal\") but not when a combat begins.",
        why: "Only the hostile row offers an attack: combat begins at that row, the others are the GM's to play.",
    },
    HouseRule {
        path: "osr.attacks",
        default: "scene_tables",
        silent: "003 \"Combat Structure\" orders \"4. Ranged attacks occur\" and \"6. Melee attacks occur\" but resolves no attack; issue 24: hits are the GM's \"or ... a scene's simple attack table\".",
        why: "The numbers are the scene author's: an attack a sheet or row gives is rolled in its phase; a scene with none (the format's default) leaves every hit to the GM; `gm_only` never rolls them.",
    },
    HouseRule {
        path: "osr.attack_targets",
        default: "nearest",
        silent: "003 names no target for an attack.",
        why: "The nearest foe still fighting (the first in scene order among equals), as a melee would close; `scene_order` takes the first.",
    },
    // ---- Sight (issue #17, docs/sight.md) ------------------------------------------------
    HouseRule {
        path: "sight.gloom_sight_in",
        default: "12",
        silent: "001 \"Lighting\": \"D/L gloomy half light or moonlight\", no sight number.",
        why: "Issue #17's default: well beyond DDL's, short of daylight's unlimited sight.",
    },
    HouseRule {
        path: "sight.torch_radius_in",
        default: "6",
        silent: "No text gives how far a torch lights.",
        why: "Issue #17's house default.",
    },
    HouseRule {
        path: "sight.lantern_radius_in",
        default: "9",
        silent: "No text gives how far a lantern lights.",
        why: "Issue #17's house default: half again a torch's.",
    },
    HouseRule {
        path: "sight.fire_light_margin_in",
        default: "3",
        silent: "Issue #17: \"fires light their burning area plus a margin\"; no text or issue gives the margin.",
        why: "The product's default: half a torch's 6\", burning ground being a low flame.",
    },
];

/// Every leaf of a settings value as a dotted path with the value there. Objects are
/// descended; anything else (a number, a string, a bool, null, an array) is a leaf at its key.
pub fn leaf_paths(value: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    fn walk(prefix: &str, value: &serde_json::Value, out: &mut Vec<(String, serde_json::Value)>) {
        match value {
            serde_json::Value::Object(map) if !map.is_empty() => {
                for (key, v) in map {
                    let path = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
                    walk(&path, v, out);
                }
            }
            _ => out.push((prefix.to_string(), value.clone())),
        }
    }
    let mut out = Vec::new();
    walk("", value, &mut out);
    out
}

/// A settings value as docs and [`HouseRule::default`] write it: strings without quotes,
/// null as `none`, floats as the `f32` the settings hold (`0.1`, not `0.10000000149011612`).
pub fn display_value(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => "none".to_string(),
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) if !n.is_i64() && !n.is_u64() => {
            n.as_f64().map(|f| (f as f32).to_string()).unwrap_or_else(|| n.to_string())
        }
        other => other.to_string(),
    }
}

/// The whole `rules` block as JSON, every field written: blocks the scene file leaves out
/// when they hold their defaults (`traps`, `fire`, `lighting`, `injuries`, `temptations`,
/// `prisoners`, `tracking`, `magic`, `obstacles`, `sight`) are put back. The destructuring names
/// every field, so a new block fails to compile here until it is added.
pub fn rules_value(rules: &crate::scene::RulesSettings) -> serde_json::Value {
    let crate::scene::RulesSettings {
        rounds_per_move,
        moves_per_day,
        sleepers,
        traps,
        herds,
        fire,
        lighting,
        injuries,
        temptations,
        prisoners,
        tracking,
        magic,
        obstacles,
        sight,
        osr,
    } = rules;
    let to = |v: serde_json::Result<serde_json::Value>| v.expect("settings serialize");
    let mut map = serde_json::Map::new();
    map.insert("rounds_per_move".into(), to(serde_json::to_value(rounds_per_move)));
    map.insert("moves_per_day".into(), to(serde_json::to_value(moves_per_day)));
    map.insert("sleepers".into(), to(serde_json::to_value(sleepers)));
    map.insert("traps".into(), to(serde_json::to_value(traps)));
    map.insert("herds".into(), to(serde_json::to_value(herds)));
    map.insert("fire".into(), to(serde_json::to_value(fire)));
    map.insert("lighting".into(), to(serde_json::to_value(lighting)));
    map.insert("injuries".into(), to(serde_json::to_value(injuries)));
    map.insert("temptations".into(), to(serde_json::to_value(temptations)));
    map.insert("prisoners".into(), to(serde_json::to_value(prisoners)));
    map.insert("tracking".into(), to(serde_json::to_value(tracking)));
    map.insert("magic".into(), to(serde_json::to_value(magic)));
    map.insert("obstacles".into(), to(serde_json::to_value(obstacles)));
    map.insert("sight".into(), to(serde_json::to_value(sight)));
    map.insert("osr".into(), to(serde_json::to_value(osr)));
    serde_json::Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    fn default_leaves() -> BTreeMap<String, serde_json::Value> {
        leaf_paths(&rules_value(&crate::scene::RulesSettings::default())).into_iter().collect()
    }

    /// Every house rule appears, as `path` in backticks, in docs/house-rules.md.
    #[test]
    fn every_house_rule_is_documented() {
        let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/house-rules.md"))
            .expect("docs/house-rules.md");
        let missing: Vec<&str> =
            HOUSE_RULES.iter().map(|h| h.path).filter(|p| !doc.contains(&format!("`{p}`"))).collect();
        assert!(missing.is_empty(), "house rules missing from docs/house-rules.md: {missing:?}");
        let missing: Vec<&str> = TEXT_SETTINGS.iter().copied().filter(|p| !doc.contains(&format!("`{p}`"))).collect();
        assert!(missing.is_empty(), "text settings missing from docs/house-rules.md: {missing:?}");
    }

    /// Every setting of the `rules` block is a house rule or a text setting, never both; every
    /// listed path is a setting; each house rule's `default` is the setting's default.
    #[test]
    fn every_setting_is_classified() {
        let leaves = default_leaves();
        let house: BTreeSet<&str> = HOUSE_RULES.iter().map(|h| h.path).collect();
        let text: BTreeSet<&str> = TEXT_SETTINGS.iter().copied().collect();
        assert_eq!(house.len(), HOUSE_RULES.len(), "a house rule is listed twice");
        assert_eq!(text.len(), TEXT_SETTINGS.len(), "a text setting is listed twice");
        let both: Vec<&&str> = house.intersection(&text).collect();
        assert!(both.is_empty(), "listed both as house rule and as text: {both:?}");
        let unclassified: Vec<&String> =
            leaves.keys().filter(|p| !house.contains(p.as_str()) && !text.contains(p.as_str())).collect();
        assert!(
            unclassified.is_empty(),
            "settings neither in HOUSE_RULES nor TEXT_SETTINGS (src/rules/house_rules.rs): {unclassified:?}"
        );
        let unknown: Vec<&&str> = house.iter().chain(text.iter()).filter(|p| !leaves.contains_key(**p)).collect();
        assert!(unknown.is_empty(), "listed paths that are not settings: {unknown:?}");
        for h in HOUSE_RULES {
            assert_eq!(h.default, display_value(&leaves[h.path]), "{}: default", h.path);
            assert!(!h.silent.is_empty() && !h.why.is_empty(), "{}: say what the text leaves open and why", h.path);
        }
    }

    #[test]
    fn leaf_paths_descend_objects_only() {
        let v = serde_json::json!({"a": 1, "b": {"c": [1, 2], "d": null, "e": {"f": "x"}}});
        let paths: Vec<String> = leaf_paths(&v).into_iter().map(|(p, _)| p).collect();
        assert_eq!(paths, vec!["a", "b.c", "b.d", "b.e.f"]);
        assert_eq!(display_value(&serde_json::json!(0.1f32)), "0.1");
        assert_eq!(display_value(&serde_json::json!(6.0f32)), "6");
        assert_eq!(display_value(&serde_json::json!(-3)), "-3");
        assert_eq!(display_value(&serde_json::json!("D6")), "D6");
        assert_eq!(display_value(&serde_json::Value::Null), "none");
    }

    #[test]
    fn reasons_carry_the_tag() {
        assert_eq!(house_rule_reason("clothed"), "clothed (house rule)");
        assert!(is_house_rule_reason(&house_rule_reason("clothed")));
        assert!(!is_house_rule_reason("clothed"));
        assert!(is_house_rule("traps.morval.clothed_agility"));
        assert!(!is_house_rule("fire.cell_size"));
        assert_eq!(house_rule_path("clothed (house rule)"), Some("traps.morval.clothed_agility"));
        assert_eq!(house_rule_note(["light", "cautious"]), None);
        let note = house_rule_note(["light", "clothed (house rule)"]).expect("a tagged reason");
        assert_eq!(note, format!("{HOUSE_RULE_HOVER}\nclothed (house rule): traps.morval.clothed_agility"));
        assert_eq!(event_house_rule_note(["light"], []), None);
        let note = event_house_rule_note(["light"], ["fire.burns"]).expect("a setting");
        assert_eq!(note, format!("{HOUSE_RULE_HOVER}\nhouse rule: fire.burns"));
    }

    /// Every modifier reason in `src/` written as a literal ending "(house rule)" (or built with
    /// `house_rule_reason("…")`) is listed in [`HOUSE_RULE_REASONS`], and every listed reason
    /// names a house rule. Comments are skipped; the reasons are found in the source text
    /// because they cannot be enumerated at run time.
    #[test]
    fn every_tagged_reason_is_mapped() {
        fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).expect("read src") {
                let path = entry.expect("dir entry").path();
                if path.is_dir() {
                    rust_files(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.push(path);
                }
            }
        }
        let mut files = Vec::new();
        rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
        let tag_end = "(house rule)\"";
        let mut found = BTreeSet::new();
        for file in &files {
            if file.ends_with("house_rules.rs") {
                continue;
            }
            let text = std::fs::read_to_string(file).expect("read source");
            for line in text.lines() {
                let code = line.trim_start();
                if code.starts_with("//") {
                    continue;
                }
                let mut rest = code;
                while let Some(end) = rest.find(tag_end) {
                    let head = &rest[..end];
                    if let Some(start) = head.rfind('"') {
                        found.insert(format!("{}(house rule)", &head[start + 1..]));
                    }
                    rest = &rest[end + tag_end.len()..];
                }
                let call = "house_rule_reason(\"";
                let mut rest = code;
                while let Some(at) = rest.find(call) {
                    let after = &rest[at + call.len()..];
                    if let Some(end) = after.find('"') {
                        found.insert(house_rule_reason(&after[..end]));
                    }
                    rest = after;
                }
            }
        }
        assert!(found.contains("clothed (house rule)"), "the scan found no tagged reasons: {found:?}");
        let unmapped: Vec<&String> = found.iter().filter(|r| house_rule_path(r).is_none()).collect();
        assert!(unmapped.is_empty(), "tagged reasons not in HOUSE_RULE_REASONS: {unmapped:?}");
        for (reason, path) in HOUSE_RULE_REASONS {
            assert!(is_house_rule_reason(reason), "{reason}: no tag");
            assert!(is_house_rule(path), "{reason}: {path} is not a house rule");
        }
    }
}
