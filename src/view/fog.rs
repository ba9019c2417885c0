//! The fog of war in the view (issue #17, `docs/sight.md` "In the view"). On the projector,
//! cells the players' side has not explored are black, cells it explored but does not see now
//! are dimmed. Figures and herds of any other side show on the projector only on cells the
//! players' side sees, fog on or off (issue #24: "monsters GM-only until they are seen"),
//! unless the GM has the projector show all sides. The GM sees everything, with the fog as a
//! see-through overlay that can be hidden, and in the Fog panel (menu, or `open --fog`) switches
//! the fog on, reveals or hides cells with a brush or a rectangle, and resets it; those edits
//! go through `document::edit_fog`, so the scene saves them, the switch included.
//!
//! The fog is drawn while it is switched on and the scene has a figure of the players' side
//! ([`PLAYERS_SIDE`]), and other sides are hidden only in such a scene: a scene with nobody of
//! that side never goes black and hides nobody.
//!
//! The projector's fog is one sprite, a texel a fog cell, rendered by a camera of its own after
//! the projector camera: gizmos (walls, the grid, markers) are drawn after every sprite of their
//! camera, so no sprite in the projector camera's own picture could cover them.

use super::camera::{CursorTable, ProjectorCamera};
use super::draw::Label;
use super::editing::Tool;
use super::layers::{GmGizmos, PROJECTOR_FOG_LAYER, gm_only};
use super::panels::PanelState;
use super::playhead::{Playhead, PlayheadSystems, Shown, ShownBeasts};
use super::tokens::{BeastToken, FigureToken};
use super::{PX_PER_INCH, to_world};
use crate::document::{Edit, FogEdit, Reveal};
use crate::scene::fog::{FogGrid, bit, words_for};
use crate::scene::players_see;
use crate::sim::fire::Fire;
use crate::sim::herds::{Beasts, Herd};
use crate::sim::sight::{ExploredFog, PLAYERS_SIDE, PartySight};
use crate::sim::traps::Trap;
use crate::sim::world::{Figure, TablePosition};
use bevy::asset::RenderAssetUsages;
use bevy::camera::RenderTarget;
use bevy::camera::visibility::RenderLayers;
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy_egui::input::egui_wants_any_pointer_input;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FogOfWar>()
        .init_resource::<PlayersSight>()
        .init_resource::<FogBrush>()
        .init_resource::<FogEditRequest>();
    app.add_systems(Startup, spawn_fog_sprites);
    app.add_systems(
        Update,
        (
            fog_mouse.run_if(super::is_gm_view).run_if(not(egui_wants_any_pointer_input)),
            apply_fog_edits,
            follow_fog_switch,
            note_party,
            follow_party_sight,
            update_fog_picture,
            hide_unseen_from_players,
            draw_fog_tool.run_if(super::is_gm_view),
        )
            .chain()
            .after(PlayheadSystems),
    );
    app.add_systems(EguiPrimaryContextPass, fog_panel.run_if(super::is_gm_view));
    // Before the cameras' transforms and projections are worked out for this frame.
    app.add_systems(
        PostUpdate,
        follow_projector_cameras
            .before(bevy::transform::TransformSystems::Propagate)
            .before(bevy::camera::CameraUpdateSystems),
    );
}

/// Opacity of the fog over cells explored but not seen now (55 %): the map shows, dimmed.
const EXPLORED_ALPHA: u8 = 140;
/// How much of the fog's opacity the GM's overlay keeps: the GM sees through it.
const GM_OVERLAY_OPACITY: f32 = 0.45;
/// The GM's overlay lies over the ground, the background and the fire, under beasts (z 1.5),
/// figures (2) and labels (5).
const GM_OVERLAY_Z: f32 = 1.0;
/// The brush's smallest and largest radius, inches.
const BRUSH_MIN_IN: f32 = 0.5;
const BRUSH_MAX_IN: f32 = 24.0;
/// Most brush dabs a frame: each visits every cell of the fog grid.
const MAX_DABS_PER_FRAME: usize = 8;
/// The brush's and rectangle's colours on the GM view: revealing green, hiding grey.
const REVEAL_COLOUR: Color = Color::srgb(0.4, 1.0, 0.5);
const HIDE_COLOUR: Color = Color::srgb(0.6, 0.6, 0.6);

/// Whether the fog of war is drawn, how the GM sees it, and who the projector shows.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct FogOfWar {
    /// Switched on: the world's switch (the scene's `fog.on`), which the view follows; the Fog
    /// panel changes it through `document::edit_fog`. `open --fog` sets this before the first
    /// frame, which switches the world's on.
    pub on: bool,
    /// The GM view shows the fog as a see-through overlay.
    pub gm_overlay: bool,
    /// The projector shows every side's figures and herds wherever they are (the Fog panel's
    /// "Projector shows all sides"); off (the default), other sides than the players' only where
    /// the players' side sees them.
    pub all_sides: bool,
    /// The scene has a figure of the players' side.
    party: bool,
    /// The world's switch has been read (on the first frame).
    synced: bool,
}

impl Default for FogOfWar {
    fn default() -> Self {
        Self { on: false, gm_overlay: true, all_sides: false, party: false, synced: false }
    }
}

impl FogOfWar {
    /// Whether the fog is drawn: switched on, and someone of the players' side is there to see.
    pub fn active(&self) -> bool {
        self.on && self.party
    }

    /// Whether the projector hides other sides' figures and herds where the players' side does
    /// not see them: whenever someone of that side is in the scene, fog on or off, unless the GM
    /// shows all sides.
    pub fn hides_other_sides(&self) -> bool {
        self.party && !self.all_sides
    }
}

/// What the projector shows of the players' sight: the cells seen and explored at the end of
/// the last move shown whole. While a move is shown round by round it keeps the sight of
/// before the move, so the projector never runs ahead of the rounds the GM has shown.
#[derive(Resource, Debug, Default)]
pub(super) struct PlayersSight {
    grid: Option<FogGrid>,
    seen: Vec<u64>,
    explored: Vec<u64>,
}

impl PlayersSight {
    /// Whether the players' side sees the cell `at` lies in.
    pub(super) fn sees(&self, at: Vec2) -> bool {
        self.grid.and_then(|g| g.cell_at(at.x, at.y)).is_some_and(|i| bit(&self.seen, i))
    }
}

/// Whether the players may see a figure or herd of `side` shown at `at`, the GM's
/// `show_players` for it being `setting`: where the GM set it, as set (always or never);
/// otherwise their own side anywhere, any other side only on a cell they see (where the fog,
/// drawn or not, is clear), anything where nothing is hidden ([`FogOfWar::hides_other_sides`]).
pub(super) fn shown_to_players(
    fog: &FogOfWar,
    sight: &PlayersSight,
    side: &str,
    at: Vec2,
    setting: Option<bool>,
) -> bool {
    players_see(setting, !fog.hides_other_sides() || side == PLAYERS_SIDE || sight.sees(at))
}

/// The GM's `show_players` of the entity named `name`: `None` when it is no figure, trap, fire
/// or herd (nothing to set), else its setting (`Some(None)`: automatic).
pub(super) fn show_players_setting(world: &mut World, name: &str) -> Option<Option<bool>> {
    let mut query = world.query::<(&Name, Option<&Figure>, Option<&Trap>, Option<&Fire>, Option<&Herd>)>();
    let (_, figure, trap, fire, herd) = query.iter(world).find(|(n, ..)| n.as_str() == name)?;
    figure
        .map(|f| f.0.show_players)
        .or(trap.map(|t| t.0.show_players))
        .or(fire.map(|f| f.0.show_players))
        .or(herd.map(|h| h.0.show_players))
}

/// The words for a `show_players` setting.
pub(super) fn show_players_words(setting: Option<bool>) -> &'static str {
    match setting {
        None => "automatic",
        Some(true) => "always shown",
        Some(false) => "never shown",
    }
}

/// The inspector's "Players see it" choice for the entity named `name`, whose setting is
/// `setting`: a change is an edit to the scene (saved with it).
pub(super) fn show_players_choice(ui: &mut egui::Ui, name: &str, setting: Option<bool>, edits: &mut Vec<Edit>) {
    let mut choice = setting;
    ui.horizontal(|ui| {
        ui.label("On the projector:").on_hover_text(
            "Automatic: as the rules say (a trap once revealed, another side where the party sees it). \
             Always or never: whatever they say. Saved with the scene.",
        );
        for option in [None, Some(true), Some(false)] {
            ui.radio_value(&mut choice, option, show_players_words(option));
        }
    });
    if choice != setting {
        edits.push(Edit::ShowPlayers(name.to_string(), choice));
    }
}

/// The fog's picture, shared by the projector's sprite and the GM's overlay.
#[derive(Resource)]
struct FogPicture(Handle<Image>);

/// One of the two fog sprites.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
enum FogSprite {
    /// On the projector's fog layer, opaque where unexplored.
    Projector,
    /// On the GM layer, see-through.
    GmOverlay,
}

/// A camera drawing the fog over the picture of the projector camera it follows.
#[derive(Component)]
struct FogCamera(Entity);

/// What a click on the table does while the Fog panel's tool is picked (`Tool::Fog`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FogTool {
    RevealBrush,
    HideBrush,
    RevealRect,
    HideRect,
}

impl FogTool {
    const ALL: [FogTool; 4] = [FogTool::RevealBrush, FogTool::HideBrush, FogTool::RevealRect, FogTool::HideRect];

    fn label(self) -> &'static str {
        match self {
            FogTool::RevealBrush => "Reveal with the brush",
            FogTool::HideBrush => "Hide with the brush",
            FogTool::RevealRect => "Reveal a rectangle (drag)",
            FogTool::HideRect => "Hide a rectangle (drag)",
        }
    }

    /// Whether it marks cells explored (or not).
    fn reveals(self) -> bool {
        matches!(self, FogTool::RevealBrush | FogTool::RevealRect)
    }

    fn is_brush(self) -> bool {
        matches!(self, FogTool::RevealBrush | FogTool::HideBrush)
    }
}

/// The Fog panel's tool between frames.
#[derive(Resource, Debug)]
struct FogBrush {
    tool: FogTool,
    /// The brush's radius, inches.
    radius: f32,
    /// Where the rectangle being dragged began.
    rect_from: Option<Vec2>,
    /// The last dab of the stroke being painted.
    last_dab: Option<Vec2>,
}

impl Default for FogBrush {
    fn default() -> Self {
        Self { tool: FogTool::RevealBrush, radius: 2.0, rect_from: None, last_dab: None }
    }
}

/// Fog edits to make this frame.
#[derive(Resource, Debug, Default)]
struct FogEditRequest(Vec<FogEdit>);

/// The alpha of every texel of the fog picture, RGBA black: none where seen, [`EXPLORED_ALPHA`]
/// where explored, opaque elsewhere. Texture rows run down from the top, the grid's rows up.
fn fog_texels(grid: FogGrid, seen: &[u64], explored: &[u64]) -> Vec<u8> {
    let (columns, rows) = (grid.columns as usize, grid.rows as usize);
    let mut texels = vec![0u8; columns * rows * 4];
    for r in 0..rows {
        let texel_row = (rows - 1 - r) * columns;
        for c in 0..columns {
            let i = r * columns + c;
            let alpha = if bit(seen, i) {
                0
            } else if bit(explored, i) {
                EXPLORED_ALPHA
            } else {
                u8::MAX
            };
            texels[(texel_row + c) * 4 + 3] = alpha;
        }
    }
    texels
}

/// The fog picture of `grid` from its texels, sampled nearest so cells stay square.
fn fog_image(grid: FogGrid, texels: Vec<u8>) -> Image {
    let mut image = Image::new(
        Extent3d { width: grid.columns, height: grid.rows, depth_or_array_layers: 1 },
        TextureDimension::D2,
        texels,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.sampler = ImageSampler::nearest();
    image
}

fn spawn_fog_sprites(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    let one = FogGrid { cell: 1.0, columns: 1, rows: 1 };
    let handle = images.add(fog_image(one, vec![0, 0, 0, u8::MAX]));
    commands.insert_resource(FogPicture(handle.clone()));
    commands.spawn((
        Sprite { image: handle.clone(), ..default() },
        Transform::default(),
        Visibility::Hidden,
        RenderLayers::layer(PROJECTOR_FOG_LAYER),
        FogSprite::Projector,
    ));
    commands.spawn((
        Sprite { image: handle, color: Color::srgba(1.0, 1.0, 1.0, GM_OVERLAY_OPACITY), ..default() },
        Transform::from_xyz(0.0, 0.0, GM_OVERLAY_Z),
        Visibility::Hidden,
        gm_only(),
        FogSprite::GmOverlay,
    ));
}

/// The view's switch follows the world's (the scene's saved `fog.on`, the Fog panel's edits, a
/// rewind or reload). On the first frame `open --fog`, which set the view's switch on before the
/// app ran, switches the world's on: an opening option like `--moves`, so the document stays
/// saved.
fn follow_fog_switch(explored: Option<ResMut<ExploredFog>>, mut fog: ResMut<FogOfWar>) {
    let Some(mut explored) = explored else { return };
    if !fog.synced {
        fog.synced = true;
        if fog.on && !explored.is_on() {
            explored.set_on(true);
        }
    }
    let on = explored.is_on();
    if fog.on != on {
        fog.on = on;
    }
}

/// Whether the scene has a figure of the players' side (written only when that changes).
fn note_party(figures: Query<&Figure>, mut fog: ResMut<FogOfWar>) {
    let party = figures.iter().any(|f| f.0.side == PLAYERS_SIDE);
    if fog.party != party {
        fog.party = party;
    }
}

/// Take the players' sight and the explored cells for the projector when they changed, unless
/// a move is being shown round by round (then once it is shown whole).
fn follow_party_sight(
    playhead: Res<Playhead>,
    party: Option<Res<PartySight>>,
    explored: Option<Res<ExploredFog>>,
    mut shown: ResMut<PlayersSight>,
    mut pending: Local<bool>,
) {
    let (Some(party), Some(explored)) = (party, explored) else { return };
    *pending |= party.is_changed() || explored.is_changed();
    let grid = explored.grid();
    let fresh = shown.grid != Some(grid);
    if !fresh && (!*pending || playhead.mid_move()) {
        return;
    }
    *pending = false;
    // The sight is on the fog's grid but for a world without sight (no seen cells then).
    let seen = if party.grid == grid { party.seen.clone() } else { vec![0; words_for(grid.cells())] };
    *shown = PlayersSight { grid: Some(grid), seen, explored: explored.bits().to_vec() };
}

/// Redraw the fog picture when what it shows changed; hide both sprites while the fog is off.
fn update_fog_picture(
    fog: Res<FogOfWar>,
    shown: Res<PlayersSight>,
    picture: Option<Res<FogPicture>>,
    mut images: ResMut<Assets<Image>>,
    mut sprites: Query<(&FogSprite, &mut Sprite, &mut Transform, &mut Visibility)>,
) {
    if !fog.is_changed() && !shown.is_changed() {
        return;
    }
    let Some(picture) = picture else { return };
    let Some(grid) = shown.grid.filter(|_| fog.active()) else {
        for (_, _, _, mut visibility) in &mut sprites {
            visibility.set_if_neq(Visibility::Hidden);
        }
        return;
    };
    let texels = fog_texels(grid, &shown.seen, &shown.explored);
    if let Some(mut image) = images.get_mut(&picture.0) {
        if image.size() == UVec2::new(grid.columns, grid.rows) {
            image.data = Some(texels);
        } else {
            *image = fog_image(grid, texels);
        }
    }
    // The grid's cells may reach a little past the table's far edges.
    let size = to_world(Vec2::new(grid.columns as f32, grid.rows as f32) * grid.cell);
    for (which, mut sprite, mut transform, mut visibility) in &mut sprites {
        if sprite.custom_size != Some(size) {
            sprite.custom_size = Some(size);
        }
        let z = transform.translation.z;
        transform.set_if_neq(Transform::from_translation((size / 2.0).extend(z)));
        let show = match which {
            FogSprite::Projector => true,
            FogSprite::GmOverlay => fog.gm_overlay,
        };
        visibility.set_if_neq(if show { Visibility::Inherited } else { Visibility::Hidden });
    }
}

/// Figures and herds of other sides than the players' are drawn for the GM only where the
/// players do not see them, fog on or off, and any the GM shows always or never as set
/// ([`shown_to_players`]): their tokens, beasts and name labels go to the GM layer.
fn hide_unseen_from_players(
    mut commands: Commands,
    fog: Res<FogOfWar>,
    sight: Res<PlayersSight>,
    figure_tokens: Query<(Entity, &FigureToken, Has<RenderLayers>)>,
    beast_tokens: Query<(Entity, &BeastToken, Has<RenderLayers>)>,
    labels: Query<(Entity, &Label, Has<RenderLayers>)>,
    figures: Query<(&Figure, &TablePosition, Option<&Shown>)>,
    herds: Query<(&Herd, &TablePosition, &Beasts, Option<&Shown>, Option<&ShownBeasts>)>,
) {
    // Where nothing is hidden, nothing to do; once hiding stops, everything hidden comes back.
    // The GM's settings are kept whatever the fog does.
    let set_by_gm = figures.iter().any(|(f, ..)| f.0.show_players.is_some())
        || herds.iter().any(|(h, ..)| h.0.show_players.is_some());
    if !fog.hides_other_sides() && !fog.is_changed() && !set_by_gm {
        return;
    }
    let visible = |side: &str, at: Vec2, setting: Option<bool>| shown_to_players(&fog, &sight, side, at, setting);
    let mut place = |entity: Entity, on_gm_layer: bool, public: bool| {
        if public && on_gm_layer {
            commands.entity(entity).try_remove::<RenderLayers>();
        } else if !public && !on_gm_layer {
            commands.entity(entity).try_insert(gm_only());
        }
    };
    for (token, figure, layered) in &figure_tokens {
        if let Ok((f, position, shown)) = figures.get(figure.0) {
            let at = shown.map_or(position.0, |s| s.at);
            place(token, layered, visible(f.0.side.as_str(), at, f.0.show_players));
        }
    }
    for (token, beast, layered) in &beast_tokens {
        if let Ok((herd, _, beasts, _, shown)) = herds.get(beast.herd) {
            let at = shown.and_then(|s| s.0.get(beast.index)).or_else(|| beasts.positions.get(beast.index));
            if let Some(at) = at {
                place(token, layered, visible(herd.0.side.as_str(), *at, herd.0.show_players));
            }
        }
    }
    // Only figures' and herds' labels: the others (traps, sleepers, beings, fires) are draw.rs's.
    for (label, of, layered) in &labels {
        if let Ok((f, position, shown)) = figures.get(of.0) {
            let at = shown.map_or(position.0, |s| s.at);
            place(label, layered, visible(f.0.side.as_str(), at, f.0.show_players));
        } else if let Ok((herd, position, _, shown, _)) = herds.get(of.0) {
            let at = shown.map_or(position.0, |s| s.at);
            place(label, layered, visible(herd.0.side.as_str(), at, herd.0.show_players));
        }
    }
}

/// Give each projector camera a fog camera drawing after it on the same target, placed and
/// zoomed as it is, blacked out with it; a fog camera whose projector camera is gone goes.
fn follow_projector_cameras(
    mut commands: Commands,
    projectors: Query<
        (Entity, &Camera, &RenderTarget, &Transform, &Projection, &RenderLayers),
        (With<ProjectorCamera>, Without<FogCamera>),
    >,
    mut fog_cameras: Query<
        (Entity, &FogCamera, &mut Transform, &mut Projection, &mut RenderLayers),
        Without<ProjectorCamera>,
    >,
) {
    for (entity, follows, mut transform, mut projection, mut layers) in &mut fog_cameras {
        let Ok((_, _, _, at, lens, theirs)) = projectors.get(follows.0) else {
            commands.entity(entity).despawn();
            continue;
        };
        transform.set_if_neq(*at);
        let want = orthographic_scale(lens);
        if let Some(scale) = want
            && want != orthographic_scale(&projection)
            && let Projection::Orthographic(o) = projection.as_mut()
        {
            o.scale = scale;
        }
        let blackout = *theirs == RenderLayers::none();
        layers.set_if_neq(if blackout { RenderLayers::none() } else { RenderLayers::layer(PROJECTOR_FOG_LAYER) });
    }
    for (entity, camera, target, at, lens, _) in &projectors {
        if fog_cameras.iter().any(|(_, follows, ..)| follows.0 == entity) {
            continue;
        }
        commands.spawn((
            Camera2d,
            Camera { order: camera.order + 1, clear_color: ClearColorConfig::None, ..default() },
            target.clone(),
            *at,
            lens.clone(),
            RenderLayers::layer(PROJECTOR_FOG_LAYER),
            FogCamera(entity),
        ));
    }
}

/// An orthographic projection's scale.
fn orthographic_scale(projection: &Projection) -> Option<f32> {
    if let Projection::Orthographic(o) = projection { Some(o.scale) } else { None }
}

/// The brush's dabs from the stroke's last dab (none: the stroke begins) to `to`: one every
/// half radius along the way, so a quick stroke leaves no gap, at most [`MAX_DABS_PER_FRAME`].
fn dabs(from: Option<Vec2>, to: Vec2, radius: f32) -> Vec<Vec2> {
    let Some(from) = from else { return vec![to] };
    let step = (radius * 0.5).max(0.1);
    let distance = from.distance(to);
    if distance < step {
        return Vec::new();
    }
    let n = ((distance / step).ceil() as usize).min(MAX_DABS_PER_FRAME);
    (1..=n).map(|k| from.lerp(to, k as f32 / n as f32)).collect()
}

/// Left button on the table with the Fog panel's tool: paint with the brush, or drag a rectangle.
fn fog_mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorTable>,
    tool: Res<Tool>,
    mut brush: ResMut<FogBrush>,
    mut edits: ResMut<FogEditRequest>,
) {
    if *tool != Tool::Fog {
        if brush.rect_from.is_some() || brush.last_dab.is_some() {
            brush.rect_from = None;
            brush.last_dab = None;
        }
        return;
    }
    let Some(at) = cursor.0 else { return };
    let explored = brush.tool.reveals();
    if brush.tool.is_brush() {
        if !buttons.pressed(MouseButton::Left) {
            if brush.last_dab.is_some() {
                brush.last_dab = None;
            }
            return;
        }
        let radius = brush.radius;
        let centres = dabs(brush.last_dab, at, radius);
        if let Some(last) = centres.last() {
            brush.last_dab = Some(*last);
        }
        edits.0.extend(centres.into_iter().map(|centre| FogEdit::Disc { centre, radius, explored }));
    } else {
        if buttons.just_pressed(MouseButton::Left) {
            brush.rect_from = Some(at);
        }
        if buttons.just_released(MouseButton::Left)
            && let Some(from) = brush.rect_from.take()
        {
            edits.0.push(FogEdit::Rect { from, to: at, explored });
        }
    }
}

/// Hand this frame's fog edits to the document. A changed fog is the world's, at the end of the
/// last move: the picture shows that, as after a drag (the switch alone changes no cell).
fn apply_fog_edits(world: &mut World) {
    if world.resource::<FogEditRequest>().0.is_empty() {
        return;
    }
    let edits = std::mem::take(&mut world.resource_mut::<FogEditRequest>().0);
    let mut changed = false;
    for edit in &edits {
        let cells = !matches!(edit, FogEdit::Switch { .. });
        changed |= crate::document::edit_fog(world, edit) && cells;
    }
    if changed {
        world.resource_mut::<Playhead>().finish();
        world.resource_mut::<Reveal>().finish();
    }
}

/// GM layer: the brush's reach at the cursor, or the rectangle being dragged.
fn draw_fog_tool(tool: Res<Tool>, brush: Res<FogBrush>, cursor: Res<CursorTable>, mut gizmos: Gizmos<GmGizmos>) {
    if *tool != Tool::Fog {
        return;
    }
    let Some(at) = cursor.0 else { return };
    let colour = if brush.tool.reveals() { REVEAL_COLOUR } else { HIDE_COLOUR };
    if brush.tool.is_brush() {
        gizmos.circle_2d(Isometry2d::from_translation(to_world(at)), brush.radius * PX_PER_INCH, colour);
    } else if let Some(from) = brush.rect_from {
        let (a, b) = (to_world(from), to_world(at));
        gizmos.rect_2d(Isometry2d::from_translation((a + b) / 2.0), (b - a).abs(), colour);
    }
}

/// The Fog panel: the fog on or off (saved with the scene), the GM's overlay, whether the
/// projector shows all sides, what is explored and who sees, the brush and rectangle, and the
/// reset.
fn fog_panel(
    mut contexts: EguiContexts,
    mut panels: ResMut<PanelState>,
    mut fog: ResMut<FogOfWar>,
    mut brush: ResMut<FogBrush>,
    mut tool: ResMut<Tool>,
    mut edits: ResMut<FogEditRequest>,
    explored: Option<Res<ExploredFog>>,
    party: Option<Res<PartySight>>,
) -> Result {
    if !panels.show_fog {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // Copies, written back only when changed: the fog picture is redrawn when they change.
    let (mut on, mut overlay, mut all_sides) = (fog.on, fog.gm_overlay, fog.all_sides);
    let mut open = true;
    egui::Window::new("Fog").open(&mut open).default_pos([8.0, 192.0]).default_width(340.0).show(ctx, |ui| {
        ui.checkbox(&mut on, "Fog of war on the projector").on_hover_text(
            "The players see what the figures of the side \"party\" see now; what they explored before, dimmed; \
             the rest black. Saved with the scene.",
        );
        if on && !fog.party {
            ui.weak("No figure of the side \"party\" in this scene: the projector shows no fog.");
        }
        ui.checkbox(&mut overlay, "Show the fog on the GM view");
        ui.checkbox(&mut all_sides, "Projector shows all sides").on_hover_text(
            "Off: figures and herds of other sides than \"party\" show on the projector only where the party sees \
             them, fog on or off (in a scene with a figure of the side \"party\"). On: the projector shows them all.",
        );
        if let Some(explored) = &explored {
            let grid = explored.grid();
            ui.label(format!(
                "Explored: {} of {} cells ({}\" square)",
                explored.explored_cells(),
                grid.cells(),
                grid.cell
            ));
        }
        if let Some(party) = &party {
            let names: Vec<&str> = party.viewers.iter().map(|v| v.name.as_str()).collect();
            let seeing = if names.is_empty() { "nobody".to_string() } else { names.join(", ") };
            ui.label(format!("Seeing now: {seeing}"));
        }
        ui.separator();
        ui.strong("Reveal or hide by hand");
        for t in FogTool::ALL {
            if ui.radio(*tool == Tool::Fog && brush.tool == t, t.label()).clicked() {
                brush.tool = t;
                *tool = Tool::Fog;
            }
        }
        let mut radius = brush.radius;
        ui.add(egui::Slider::new(&mut radius, BRUSH_MIN_IN..=BRUSH_MAX_IN).text("brush radius").suffix("\""));
        if radius != brush.radius {
            brush.radius = radius;
        }
        if *tool == Tool::Fog {
            ui.weak("Left-click or drag on the table. Cells the party sees now stay clear.");
            if ui.button("Done: back to select  Esc").clicked() {
                *tool = Tool::Select;
            }
        }
        ui.separator();
        if ui
            .button("Reset fog")
            .on_hover_text("Forget everything explored: only what the party sees now stays clear")
            .clicked()
        {
            edits.0.push(FogEdit::Reset);
        }
    });
    // The switch is the world's: the edit changes it, and the view follows next frame.
    if on != fog.on {
        edits.0.push(FogEdit::Switch { on });
    }
    if overlay != fog.gm_overlay {
        fog.gm_overlay = overlay;
    }
    if all_sides != fog.all_sides {
        fog.all_sides = all_sides;
    }
    if !open {
        panels.show_fog = false;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alphas(texels: &[u8]) -> Vec<u8> {
        texels.chunks(4).map(|t| t[3]).collect()
    }

    #[test]
    fn the_picture_is_clear_where_seen_dim_where_explored_and_black_elsewhere() {
        let grid = FogGrid { cell: 0.5, columns: 3, rows: 2 };
        // Cell 0 (lower left) seen and explored, cell 1 explored, cell 5 (upper right) seen.
        let (seen, explored) = (vec![0b100001], vec![0b000011]);
        let texels = fog_texels(grid, &seen, &explored);
        assert_eq!(texels.len(), 3 * 2 * 4);
        // The texture's first row is the grid's top row.
        assert_eq!(alphas(&texels), vec![255, 255, 0, 0, EXPLORED_ALPHA, 255]);
        assert!(texels.chunks(4).all(|t| t[..3] == [0, 0, 0]), "black");
        const { assert!(EXPLORED_ALPHA > 0 && EXPLORED_ALPHA < 255) };
    }

    #[test]
    fn other_sides_show_only_where_the_players_see_fog_on_or_off() {
        let grid = FogGrid::for_table(4.0, 2.0);
        let mut seen = vec![0; words_for(grid.cells())];
        let cell = grid.cell_at(1.2, 1.2).unwrap();
        seen[cell / 64] |= 1 << (cell % 64);
        let sight = PlayersSight { grid: Some(grid), seen, explored: Vec::new() };
        assert!(sight.sees(Vec2::new(1.1, 1.05)) && !sight.sees(Vec2::new(3.0, 1.0)));
        assert!(!sight.sees(Vec2::new(-1.0, 1.0)), "off the table");
        let (seen_at, unseen_at) = (Vec2::new(1.1, 1.1), Vec2::new(3.0, 1.0));
        for on in [true, false] {
            let fog = FogOfWar { on, party: true, ..FogOfWar::default() };
            assert_eq!(fog.active(), on);
            assert!(fog.hides_other_sides(), "fog on: {on}");
            assert!(shown_to_players(&fog, &sight, "raiders", seen_at, None));
            assert!(!shown_to_players(&fog, &sight, "raiders", unseen_at, None), "fog on: {on}");
            assert!(!shown_to_players(&fog, &sight, "beasts", unseen_at, None), "fog on: {on}");
            assert!(shown_to_players(&fog, &sight, PLAYERS_SIDE, unseen_at, None), "the players' own");
            // The GM shows all sides: nothing is hidden.
            let all = FogOfWar { all_sides: true, ..fog.clone() };
            assert!(!all.hides_other_sides() && shown_to_players(&all, &sight, "raiders", unseen_at, None));
            assert_eq!(all.active(), on, "showing all sides leaves the fog as it is");
        }
        // No party figure: no fog and nothing hidden.
        let nobody = FogOfWar { on: true, party: false, ..FogOfWar::default() };
        assert!(!nobody.active() && !nobody.hides_other_sides());
        assert!(shown_to_players(&nobody, &sight, "raiders", unseen_at, None));
    }

    #[test]
    fn the_gms_setting_overrides_what_the_players_would_see() {
        let grid = FogGrid::for_table(4.0, 2.0);
        let mut seen = vec![0; words_for(grid.cells())];
        let cell = grid.cell_at(1.2, 1.2).unwrap();
        seen[cell / 64] |= 1 << (cell % 64);
        let sight = PlayersSight { grid: Some(grid), seen, explored: Vec::new() };
        let (seen_at, unseen_at) = (Vec2::new(1.1, 1.1), Vec2::new(3.0, 1.0));
        let hiding = FogOfWar { on: true, party: true, ..FogOfWar::default() };
        let showing_all = FogOfWar { all_sides: true, ..hiding.clone() };
        for fog in [&hiding, &showing_all] {
            for (side, at) in [("raiders", seen_at), ("raiders", unseen_at), (PLAYERS_SIDE, unseen_at)] {
                // Always: shown where the rules would hide it; never: hidden where they would show it.
                assert!(shown_to_players(fog, &sight, side, at, Some(true)), "{side} at {at}");
                assert!(!shown_to_players(fog, &sight, side, at, Some(false)), "{side} at {at}");
            }
        }
        // Automatic is the rules' answer.
        assert!(!shown_to_players(&hiding, &sight, "raiders", unseen_at, None));
        assert!(shown_to_players(&showing_all, &sight, "raiders", unseen_at, None));
        assert_eq!(
            [None, Some(true), Some(false)].map(show_players_words),
            ["automatic", "always shown", "never shown"]
        );
    }

    #[test]
    fn the_setting_is_read_from_the_named_entity() {
        let scene = crate::sim::testing::scene_from_str(
            "(version: 1, table: (width: 20, height: 20),
              figures: [(name: \"Spy\", side: \"raiders\", position: (2, 2), show_players: Some(true)),
                        (name: \"Ann\", position: (3, 3))],
              traps: [(name: \"Pit\", kind: pit(depth: 1, bottom: spiked), position: (5, 5),
                       show_players: Some(false))],
              fires: [(name: \"Camp\", position: (8, 8))],
              herds: [(name: \"Cows\", beast: cow, count: 2, position: (12, 12), show_players: Some(false))],
              sleepers: [(name: \"Camp guard\", position: (15, 15), members: [\"A\"])])",
        );
        let mut app = crate::sim::testing::app_with_scene(&scene, 1);
        let world = app.world_mut();
        assert_eq!(show_players_setting(world, "Spy"), Some(Some(true)));
        assert_eq!(show_players_setting(world, "Ann"), Some(None));
        assert_eq!(show_players_setting(world, "Pit"), Some(Some(false)));
        assert_eq!(show_players_setting(world, "Camp"), Some(None));
        assert_eq!(show_players_setting(world, "Cows"), Some(Some(false)));
        assert_eq!(show_players_setting(world, "Camp guard"), None, "sleepers have no setting");
        assert_eq!(show_players_setting(world, "nobody"), None);
    }

    #[test]
    fn a_stroke_dabs_every_half_radius_and_not_while_the_cursor_rests() {
        let start = Vec2::new(1.0, 1.0);
        assert_eq!(dabs(None, start, 2.0), vec![start], "a stroke starts with a dab");
        assert!(dabs(Some(start), start + Vec2::new(0.9, 0.0), 2.0).is_empty(), "under half the radius");
        let along = dabs(Some(start), start + Vec2::new(4.0, 0.0), 2.0);
        assert_eq!(along.len(), 4);
        assert!((along[0].x - 2.0).abs() < 1e-5 && (along[3].x - 5.0).abs() < 1e-5);
        let far = dabs(Some(start), start + Vec2::new(100.0, 0.0), 2.0);
        assert_eq!(far.len(), MAX_DABS_PER_FRAME);
        assert!((far.last().unwrap().x - 101.0).abs() < 1e-4, "the last dab is under the cursor");
    }

    #[test]
    fn each_tool_reveals_or_hides_by_brush_or_rectangle() {
        let kinds: Vec<(bool, bool)> = FogTool::ALL.iter().map(|t| (t.reveals(), t.is_brush())).collect();
        assert_eq!(kinds, vec![(true, true), (false, true), (true, false), (false, false)]);
    }
}
