//! Reading a scene: size bounds, RON syntax with `file:line:col`, then the checks a parser
//! cannot make (bounds, names, counts), each naming the entity and field.

use super::format::*;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Largest scene file read, in bytes (16 MiB).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// Largest table side, in inches.
pub const MAX_TABLE_INCHES: f32 = 1000.0;
/// Most entities of one kind (figures, traps, regions, walls, doors, fires, herds, groups).
pub const MAX_ENTITIES_PER_KIND: usize = 10_000;
/// Most points in one wall, polygon or path.
pub const MAX_POINTS: usize = 10_000;
/// Most polygon points all terrain regions may have together: painting the fire grid sweeps
/// every polygon edge across the rows it spans, so this bounds that work (about 0.4 s at worst).
pub const MAX_TERRAIN_POINTS: usize = 20_000;
/// Most figures: a crowd on one spot makes every trap it springs count every other figure as a
/// bystander, work that grows with the square of the crowd (2,000 on one spot: about 0.3 s a
/// move; 10,000: over 8 s).
pub const MAX_FIGURES: usize = 2_000;
/// Most sleeping groups: every group that wakes makes noises every other group in earshot may
/// hear, work that grows with the square of the groups.
pub const MAX_SLEEPING_GROUPS: usize = 500;
/// Most members of all sleeping groups together.
pub const MAX_SLEEPERS: usize = 2_000;
/// Most terrain regions: each is painted into the fire grid row by row, and looked up under
/// every figure that moves, so this bounds that work.
pub const MAX_TERRAIN_REGIONS: usize = 2_000;
/// Most beasts in one herd.
pub const MAX_HERD_SIZE: u32 = 1_000;
/// Most members of one sleeping group.
pub const MAX_GROUP_SIZE: usize = 200;
/// Longest entity name, in characters.
pub const MAX_NAME_CHARS: usize = 100;
/// Most conditions one figure, or one member of a sleeping group, may carry. The simulation
/// never puts more on (`put_condition` in `scene::format`): at the cap a repeated condition
/// is merged into the one already there.
pub const MAX_CONDITIONS: usize = 100;
/// Largest move penalty of one condition, in inches: more than any move (a `move_rate` is at
/// most 100"), so a condition at it stops the figure whatever else it has.
pub const MAX_MOVE_PENALTY: f32 = 100.0;
/// Most moves a scene's clock may have played (`clock.moves_played`): a million, about five
/// years of play at three minutes a move. The simulation never steps past it, so the move
/// counter never wraps, and every round on the clock (at most 10 a move) is a whole number an
/// `f32` holds exactly, so fire times stay exact.
pub const MAX_MOVES_PLAYED: u32 = 1_000_000;
/// Most objectives in a scene: a play-test judges each, every figure of its side, in every run.
pub const MAX_OBJECTIVES: usize = 100;
/// Most polygon points all objective areas may have together.
pub const MAX_OBJECTIVE_POINTS: usize = 10_000;
/// Most problems listed for one file.
const MAX_PROBLEMS: usize = 50;

/// Why a scene could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The scene file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file is over [`MAX_FILE_BYTES`].
    #[error("{path}: file is {size} bytes, larger than the {MAX_FILE_BYTES}-byte limit for scenes")]
    TooLarge {
        /// The scene file.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
    },
    /// The file is not valid UTF-8 or not a scene in RON.
    #[error("{path}:{line}:{col}: {message}")]
    Syntax {
        /// The scene file.
        path: PathBuf,
        /// Where the error is: the line, from 1.
        line: usize,
        /// The column, from 1.
        col: usize,
        /// What is wrong there.
        message: String,
    },
    /// The file parsed but fails the checks the parser cannot make.
    #[error("{}", format_problems(path, problems))]
    Invalid {
        /// The scene file.
        path: PathBuf,
        /// Everything found wrong, up to 50.
        problems: Vec<Problem>,
    },
}

impl SceneError {
    /// Exit code class: I/O problems are 2 (usage or I/O), anything wrong inside the file 1.
    pub fn is_io(&self) -> bool {
        matches!(self, SceneError::Io { .. })
    }
}

fn format_problems(path: &Path, problems: &[Problem]) -> String {
    problems.iter().map(|p| format!("{}: {p}", path.display())).collect::<Vec<_>>().join("\n")
}

/// One thing wrong with a scene, naming where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// `figure "Morgana"`, or `table`, `rules`.
    pub entity: String,
    /// What is wrong with it.
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.entity, self.message)
    }
}

/// Read a whole file of at most `limit` bytes, or `Ok(Err(size))` when it is larger. The read
/// stops one byte past the limit, so a device (`/dev/zero`, `/dev/urandom`) or a file that
/// grows while it is read never fills memory; `size` is the length read so far.
pub fn read_bounded(path: &Path, limit: u64) -> std::io::Result<Result<Vec<u8>, u64>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let known = file.metadata().map(|m| m.len()).unwrap_or(0);
    if known > limit {
        return Ok(Err(known));
    }
    let mut bytes = Vec::with_capacity(known as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Ok(Err(bytes.len() as u64));
    }
    Ok(Ok(bytes))
}

/// Read and check a scene file.
pub fn load_scene(path: &Path) -> Result<Scene, SceneError> {
    let io = |source| SceneError::Io { path: path.to_path_buf(), source };
    let bytes = match read_bounded(path, MAX_FILE_BYTES).map_err(io)? {
        Ok(bytes) => bytes,
        Err(size) => return Err(SceneError::TooLarge { path: path.to_path_buf(), size }),
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        let (line, col) = line_col(&e.as_bytes()[..e.utf8_error().valid_up_to()]);
        SceneError::Syntax { path: path.to_path_buf(), line, col, message: "the file is not valid UTF-8".into() }
    })?;
    parse_scene(&text, path)
}

fn line_col(prefix: &[u8]) -> (usize, usize) {
    let line = prefix.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = prefix.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, col)
}

/// Parse and check scene text; `path` names it in errors.
pub fn parse_scene(text: &str, path: &Path) -> Result<Scene, SceneError> {
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(SceneError::TooLarge { path: path.to_path_buf(), size: text.len() as u64 });
    }
    // Plain RON is read quickly; anything else, and every error, by `ron` itself.
    let scene: Scene = match super::quick_ron::read(text) {
        Some(scene) => scene,
        None => read_with_ron(text, path)?,
    };
    let problems = validate(&scene);
    if problems.is_empty() { Ok(scene) } else { Err(SceneError::Invalid { path: path.to_path_buf(), problems }) }
}

/// How `ron` reads a scene: `implicit_some` on, and a recursion limit, which keeps hostile
/// nesting from overflowing the stack.
pub(crate) fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME).with_recursion_limit(64)
}

/// `text` read by `ron`, with the scene loader's extensions; a syntax error is located.
fn read_with_ron(text: &str, path: &Path) -> Result<Scene, SceneError> {
    ron_options().from_str(text).map_err(|e| SceneError::Syntax {
        path: path.to_path_buf(),
        line: e.span.start.line,
        col: e.span.start.col,
        message: syntax_message(&e.code.to_string()),
    })
}

/// Longest entity or message in a problem, in characters (a longer one ends in "…").
pub const MAX_PROBLEM_CHARS: usize = 300;

fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_PROBLEM_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// A syntax error's message with each `quoted` run cut to [`MAX_NAME_CHARS`] characters (the
/// parser quotes a misspelt field whole, and a hostile one can be megabytes), and the whole
/// cut at four times [`MAX_PROBLEM_CHARS`] (it may list every field a struct has).
fn syntax_message(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4 * MAX_PROBLEM_CHARS));
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        // Odd parts are inside backticks.
        if i % 2 == 1 { out.push_str(&shown(part)) } else { out.push_str(part) }
    }
    match out.char_indices().nth(4 * MAX_PROBLEM_CHARS) {
        Some((at, _)) => format!("{}…", &out[..at]),
        None => out,
    }
}

/// A name quoted in a problem: at most [`MAX_NAME_CHARS`] characters, longer ones ending in "…".
pub(crate) fn shown(name: &str) -> String {
    match name.char_indices().nth(MAX_NAME_CHARS) {
        Some((at, _)) => format!("{}…", &name[..at]),
        None => name.to_string(),
    }
}

/// Write a point as the scene file does.
pub fn fmt_point(p: Point) -> String {
    format!("({}, {})", p.0, p.1)
}

/// Collects problems while a scene is checked; each domain's entities check themselves with it.
pub(crate) struct Checker<'a> {
    table: Table,
    problems: Vec<Problem>,
    names: HashSet<&'a str>,
}

impl<'a> Checker<'a> {
    /// Note a problem. Entity and message are cut at [`MAX_PROBLEM_CHARS`] characters, so a
    /// name or a value of any length quoted back never makes an error line unreadable.
    pub(crate) fn problem(&mut self, entity: &str, message: String) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(Problem { entity: cut(entity), message: cut(&message) });
        }
    }

    pub(crate) fn name(&mut self, kind: &str, name: &'a str) -> String {
        // A name of at most MAX_NAME_CHARS bytes has at most as many characters: not cut.
        let entity = if name.len() <= MAX_NAME_CHARS {
            format!("{kind} \"{name}\"")
        } else {
            format!("{kind} \"{}\"", name.chars().take(MAX_NAME_CHARS).collect::<String>())
        };
        if name.trim().is_empty() {
            self.problem(&format!("{kind} (unnamed)"), "name: must not be empty".into());
        } else if name.len() > MAX_NAME_CHARS && name.chars().count() > MAX_NAME_CHARS {
            self.problem(&entity, format!("name: longer than {MAX_NAME_CHARS} characters"));
        } else if !self.names.insert(name) {
            self.problem(&entity, "name: another entity already has this name".into());
        }
        entity
    }

    /// The table's width and height (checked before any entity is).
    pub(crate) fn table_size(&self) -> (f32, f32) {
        (self.table.width, self.table.height)
    }

    pub(crate) fn finite(&mut self, entity: &str, field: &str, v: f32) -> bool {
        if v.is_finite() {
            true
        } else {
            self.problem(entity, format!("{field}: {v} is not a finite number"));
            false
        }
    }

    /// Whether `p` is a finite point on the table: what [`Self::on_table`] accepts silently.
    fn is_on_table(&self, p: Point) -> bool {
        let Table { width, height } = self.table;
        p.0.is_finite() && p.1.is_finite() && p.0 >= 0.0 && p.1 >= 0.0 && p.0 <= width && p.1 <= height
    }

    pub(crate) fn on_table(&mut self, entity: &str, field: &str, p: Point) {
        if self.is_on_table(p) {
            return;
        }
        if !self.finite(entity, field, p.0) || !self.finite(entity, field, p.1) {
            return;
        }
        // Finite, so off the table.
        let Table { width, height } = self.table;
        self.problem(entity, format!("{field} {} is off the {width}x{height} table", fmt_point(p)));
    }

    pub(crate) fn points(&mut self, entity: &str, field: &str, points: &[Point], min: usize) {
        if points.len() > MAX_POINTS {
            self.problem(entity, format!("{field}: {} points, more than the {MAX_POINTS} allowed", points.len()));
            return;
        }
        if points.len() < min {
            self.problem(entity, format!("{field}: needs at least {min} points, has {}", points.len()));
        }
        // The label is only needed for a problem: most lists have none.
        if !points.iter().all(|&p| self.is_on_table(p)) {
            let label = format!("{field} point");
            for &p in points {
                self.on_table(entity, &label, p);
            }
        }
    }

    pub(crate) fn positive(&mut self, entity: &str, field: &str, v: f32, max: f32) {
        if self.finite(entity, field, v) && !(v > 0.0 && v <= max) {
            self.problem(entity, format!("{field}: {v} must be more than 0 and at most {max}"));
        }
    }

    /// A shape (a region's, an objective's area): on the table, a rectangle the right way
    /// round, a radius more than 0, a polygon of 3 to [`MAX_POINTS`] points.
    pub(crate) fn shape(&mut self, entity: &str, field: &str, shape: &Shape) {
        match shape {
            Shape::Rect { min, max } => {
                self.on_table(entity, &format!("{field} min"), *min);
                self.on_table(entity, &format!("{field} max"), *max);
                if min.0 > max.0 || min.1 > max.1 {
                    self.problem(
                        entity,
                        format!("{field}: min {} is not below and left of max {}", fmt_point(*min), fmt_point(*max)),
                    );
                }
            }
            Shape::Circle { center, radius } => {
                self.on_table(entity, &format!("{field} center"), *center);
                self.positive(entity, &format!("{field} radius"), *radius, MAX_TABLE_INCHES);
            }
            Shape::Polygon { points } => self.points(entity, field, points, 3),
        }
    }

    /// A `picture` path, when there is one ([`super::pictures::picture_problem`]); whether the
    /// file is there is not checked (the view warns and draws the plain token).
    pub(crate) fn picture(&mut self, entity: &str, picture: Option<&str>) {
        if let Some(p) = picture
            && let Some(why) = super::pictures::picture_problem(p)
        {
            self.problem(entity, format!("picture: \"{}\" {why}", shown(p)));
        }
    }

    fn count<T>(&mut self, kind: &str, list: &[T]) -> bool {
        if list.len() > MAX_ENTITIES_PER_KIND {
            self.problem(
                "scene",
                format!("{kind}: {} entries, more than the {MAX_ENTITIES_PER_KIND} allowed", list.len()),
            );
            false
        } else {
            true
        }
    }
}

/// Everything wrong with a parsed scene; empty when it is valid.
pub fn validate(scene: &Scene) -> Vec<Problem> {
    // Most names are figures': sized once instead of grown.
    let names = HashSet::with_capacity(scene.figures.len() + scene.traps.len() + scene.terrain.len());
    let mut c = Checker { table: scene.table, problems: Vec::new(), names };
    if scene.version != FORMAT_VERSION {
        c.problem(
            "scene",
            format!("version: {} is not supported (this build reads version {FORMAT_VERSION})", scene.version),
        );
    }
    let Table { width, height } = scene.table;
    for (field, v) in [("width", width), ("height", height)] {
        if !(v.is_finite() && (1.0..=MAX_TABLE_INCHES).contains(&v)) {
            c.problem("table", format!("{field}: {v} must be between 1 and {MAX_TABLE_INCHES} inches"));
        }
    }
    if !c.problems.is_empty() {
        // Bounds checks below need a sane table.
        return c.problems;
    }
    if scene.clock.moves_played > MAX_MOVES_PLAYED {
        c.problem(
            "clock",
            format!(
                "moves_played: {} is more than {MAX_MOVES_PLAYED}, the most moves a scene may have played",
                scene.clock.moves_played
            ),
        );
    }
    let rules = &scene.rules;
    if !(1..=10).contains(&rules.rounds_per_move) {
        c.problem("rules", format!("rounds_per_move: {} must be 1 to 10", rules.rounds_per_move));
    }
    if !(1..=100_000).contains(&rules.moves_per_day) {
        c.problem("rules", format!("moves_per_day: {} must be 1 to 100000", rules.moves_per_day));
    }
    let reach = rules.temptations.reach_in;
    if c.finite("rules", "temptations reach_in", reach) && !(reach > 0.0 && reach <= MAX_TABLE_INCHES) {
        c.problem(
            "rules",
            format!("temptations reach_in: {reach} must be more than 0 and at most {MAX_TABLE_INCHES} inches"),
        );
    }
    let light = &rules.lighting;
    if c.finite("rules", "lighting dark_sight_in", light.dark_sight_in)
        && !(0.0..=1000.0).contains(&light.dark_sight_in)
    {
        c.problem("rules", format!("lighting dark_sight_in: {} must be 0 to 1000 inches", light.dark_sight_in));
    }
    if c.finite("rules", "lighting strong_light_from", light.strong_light_from)
        && !(light.strong_light_from > 0.0 && light.strong_light_from <= 1.0)
    {
        c.problem(
            "rules",
            format!("lighting strong_light_from: {} must be above 0 and at most 1", light.strong_light_from),
        );
    }
    for (field, steps) in
        [("strong_light_steps", light.strong_light_steps), ("weak_light_steps", light.weak_light_steps)]
    {
        if steps > 5 {
            c.problem("rules", format!("lighting {field}: {steps} must be 0 to 5"));
        }
    }

    if c.count("terrain", &scene.terrain) {
        let polygon_points: usize =
            scene.terrain.iter().map(|r| if let Shape::Polygon { points } = &r.shape { points.len() } else { 0 }).sum();
        if scene.terrain.len() > MAX_TERRAIN_REGIONS {
            c.problem(
                "scene",
                format!("terrain: {} entries, more than the {MAX_TERRAIN_REGIONS} allowed", scene.terrain.len()),
            );
        }
        if polygon_points > MAX_TERRAIN_POINTS {
            c.problem(
                "terrain",
                format!("{polygon_points} polygon points in all, more than the {MAX_TERRAIN_POINTS} allowed"),
            );
        }
        for r in &scene.terrain {
            let e = c.name("region", &r.name);
            c.shape(&e, "shape", &r.shape);
        }
    }
    if let Some(bg) = &scene.background {
        if bg.image.trim().is_empty() {
            c.problem("background", "image: must name a file".into());
        }
        c.finite("background", "origin", bg.origin.0);
        c.finite("background", "origin", bg.origin.1);
        c.positive("background", "size width", bg.size.0, 10.0 * MAX_TABLE_INCHES);
        c.positive("background", "size height", bg.size.1, 10.0 * MAX_TABLE_INCHES);
    }
    if c.count("lights", &scene.lights) {
        for light in &scene.lights {
            let e = c.name("light", &light.name);
            c.on_table(&e, "position", light.position);
            c.positive(&e, "range", light.range, MAX_TABLE_INCHES);
            if c.finite(&e, "intensity", light.intensity) && !(0.0..=1.0).contains(&light.intensity) {
                c.problem(&e, format!("intensity: {} must be 0 to 1", light.intensity));
            }
            let hex = light.color.strip_prefix('#').unwrap_or("");
            if hex.len() != 6 || !hex.chars().all(|ch| ch.is_ascii_hexdigit()) {
                c.problem(&e, format!("color: \"{}\" must be #rrggbb", light.color));
            }
        }
    }
    if c.count("walls", &scene.walls) {
        for w in &scene.walls {
            let e = c.name("wall", &w.name);
            c.points(&e, "points", &w.points, 2);
            let most = super::obstacles::MAX_HEIGHT_IN;
            if let Some(h) = w.height_in
                && c.finite(&e, "height_in", h)
                && !(h > 0.0 && h <= most)
            {
                c.problem(&e, format!("height_in: {h} must be more than 0 and at most {most}"));
            }
        }
    }
    if c.count("doors", &scene.doors) {
        for d in &scene.doors {
            let e = c.name("door", &d.name);
            c.on_table(&e, "from", d.from);
            c.on_table(&e, "to", d.to);
        }
    }
    if scene.figures.len() > MAX_FIGURES {
        c.problem("scene", format!("figures: {} entries, more than the {MAX_FIGURES} allowed", scene.figures.len()));
    }
    if c.count("figures", &scene.figures) {
        for f in &scene.figures {
            let e = c.name("figure", &f.name);
            c.on_table(&e, "position", f.position);
            c.points(&e, "path", &f.path, 0);
            c.picture(&e, f.picture.as_deref());
            if c.finite(&e, "facing", f.facing) && f.facing.abs() > 360.0 {
                c.problem(&e, format!("facing: {} must be within -360 and 360 degrees", f.facing));
            }
            if let Some(rate) = f.move_rate
                && c.finite(&e, "move_rate", rate)
                && !(0.0..=100.0).contains(&rate)
            {
                c.problem(&e, format!("move_rate: {rate} must be 0 to 100 inches"));
            }
            if let Some(w) = f.weight
                && c.finite(&e, "weight", w)
                && !(0.0..=10_000.0).contains(&w)
            {
                c.problem(&e, format!("weight: {w} must be 0 to 10000"));
            }
            if let Some(a) = f.agility
                && !(-10..=10).contains(&a)
            {
                c.problem(&e, format!("agility: {a} must be -10 to 10"));
            }
            if !(-10..=10).contains(&f.spot_factor) {
                c.problem(&e, format!("spot_factor: {} must be -10 to 10", f.spot_factor));
            }
            for s in &f.skills {
                if let Skill::SpotDisarm(n) | Skill::SetTrap(n) = s
                    && !(1..=4).contains(n)
                {
                    c.problem(&e, format!("skills: {s:?} must be taken 1 to 4 times"));
                }
                if let Skill::AnimalTrainer(n) = s
                    && !(1..=2).contains(n)
                {
                    c.problem(&e, format!("skills: AnimalTrainer level {n} must be 1 or 2"));
                }
            }
            if let Some(p) = &f.mordheim {
                for (field, v, lo) in [("ws", p.ws, 0), ("s", p.s, 1), ("t", p.t, 1), ("w", p.w, 0), ("i", p.i, 0)] {
                    if !(lo..=10).contains(&v) {
                        c.problem(&e, format!("mordheim {field}: {v} must be {lo} to 10"));
                    }
                }
                if let Some(sv) = p.sv
                    && !(1..=6).contains(&sv)
                {
                    c.problem(&e, format!("mordheim sv: {sv} must be 1 to 6"));
                }
            }
            if f.conditions.len() > MAX_CONDITIONS {
                c.problem(&e, format!("conditions: {} is more than {MAX_CONDITIONS}", f.conditions.len()));
            }
            for cond in &f.conditions {
                if c.finite(&e, "conditions move_penalty", cond.move_penalty)
                    && !(0.0..=MAX_MOVE_PENALTY).contains(&cond.move_penalty)
                {
                    c.problem(
                        &e,
                        format!(
                            "conditions \"{}\": move_penalty {} must be 0 to {MAX_MOVE_PENALTY}",
                            cond.name, cond.move_penalty
                        ),
                    );
                }
            }
        }
    }
    scene.rules.traps.check(&mut c);
    if c.count("traps", &scene.traps) {
        for t in &scene.traps {
            t.check(&mut c);
        }
        super::traps::check_khemri_spacing(&scene.traps, &mut c);
        super::traps::check_lifter_doors(&scene.traps, &scene.doors, &mut c);
    }
    if c.count("fires", &scene.fires) {
        for f in &scene.fires {
            f.check(&mut c);
        }
    }
    super::fires::check_scene(scene, &mut c);
    if c.count("herds", &scene.herds) {
        for h in &scene.herds {
            h.check(&mut c);
        }
    }
    super::sleepers::check_settings(&scene.rules.sleepers, &mut c);
    super::herds::check_scene(scene, &mut c);
    if scene.sleepers.len() > MAX_SLEEPING_GROUPS {
        c.problem(
            "scene",
            format!("sleepers: {} groups, more than the {MAX_SLEEPING_GROUPS} allowed", scene.sleepers.len()),
        );
    }
    let sleepers: usize = scene.sleepers.iter().map(|g| g.members.len()).sum();
    if sleepers > MAX_SLEEPERS {
        c.problem("scene", format!("sleepers: {sleepers} members in all, more than the {MAX_SLEEPERS} allowed"));
    }
    if c.count("sleepers", &scene.sleepers) {
        for g in &scene.sleepers {
            g.check(&mut c);
        }
    }
    super::injuries::check_scene(scene, &mut c);
    super::temptations::check_scene(scene, &mut c);
    super::prisoners::check_scene(scene, &mut c);
    super::trails::check_settings(&scene.rules.tracking, &mut c);
    super::trails::check_scene(scene, &mut c);
    super::magic::check_scene(scene, &mut c);
    super::obstacles::check_scene(scene, &mut c);
    super::osr::check_scene(scene, &mut c);
    super::fog::check_scene(scene, &mut c);
    check_objectives(scene, &mut c);
    // References between entities, now that every name is known.
    let figure_names: HashSet<&str> = scene.figures.iter().map(|f| f.name.as_str()).collect();
    for h in &scene.herds {
        for herder in &h.herders {
            if !figure_names.contains(herder.as_str()) {
                c.problem(
                    &format!("herd \"{}\"", shown(&h.name)),
                    format!("herders: no figure is named \"{}\"", shown(herder)),
                );
            }
        }
    }
    c.problems
}

/// Objectives: at most [`MAX_OBJECTIVES`], each named, for a side some figure has, judged at a
/// move from 1 to [`MAX_MOVES_PLAYED`], with an area checked as a region's shape is.
fn check_objectives<'a>(scene: &'a Scene, c: &mut Checker<'a>) {
    if scene.objectives.len() > MAX_OBJECTIVES {
        c.problem(
            "scene",
            format!("objectives: {} entries, more than the {MAX_OBJECTIVES} allowed", scene.objectives.len()),
        );
        return;
    }
    let polygon_points: usize =
        scene.objectives.iter().map(|o| if let Shape::Polygon { points } = &o.area { points.len() } else { 0 }).sum();
    if polygon_points > MAX_OBJECTIVE_POINTS {
        c.problem(
            "objectives",
            format!("{polygon_points} polygon points in all, more than the {MAX_OBJECTIVE_POINTS} allowed"),
        );
    }
    if scene.objectives.is_empty() {
        return;
    }
    let sides: HashSet<&str> = scene.figures.iter().map(|f| f.side.as_str()).collect();
    for o in &scene.objectives {
        let e = c.name("objective", &o.name);
        if !sides.contains(o.side.as_str()) {
            c.problem(&e, format!("side: no figure is on side \"{}\"", shown(&o.side)));
        }
        if !(1..=MAX_MOVES_PLAYED).contains(&o.by_move) {
            c.problem(&e, format!("by_move: {} must be 1 to {MAX_MOVES_PLAYED}", o.by_move));
        }
        c.shape(&e, "area", &o.area);
    }
}
