//! Entity labels that never overlap (issue #25). The names under tokens (draw.rs), the GM's
//! state lines under traps and figures (traps.rs) and trackers' readings (trails.rs) are placed
//! by one collision pass whenever what they show changes: each label tries spots round its
//! token (above, below, right, left, the diagonals), then the same spots further out with a
//! leader line back to the token, and takes the first spot that overlaps no label placed before
//! it and, where some spot allows, covers no token. Labels are placed most important first
//! (figures' names, traps' names, figures' states, traps' states, herds and fires, the rest),
//! ties in scene order; a label with no room left is hidden, and the GM's hover names it
//! (hover.rs).
//!
//! What the players may see is placed first and alone, as if the GM's labels did not exist, so
//! the projector's labels never move aside for something hidden (which would give it away);
//! the GM's labels are then placed round them and round the obstacles' GM labels (which stay
//! where their own code puts them, [`FixedLabel`]). Both views show one placement: the
//! projector shows the public part of it.
//!
//! Label sizes are estimated from the text (Bevy's default font, FiraMono, is monospaced: every
//! glyph 0.6 em wide, lines 1.2 em) and widened to the size Bevy's text layout measured
//! (`TextLayoutInfo`, a frame after the text changes) where that is larger.

use super::layers::{GM_LAYER, PUBLIC_LAYER, Retained};
use super::playhead::Shown;
use super::{PX_PER_INCH, to_world};
use crate::sim::fire::Fire;
use crate::sim::herds::Herd;
use crate::sim::traps::Trap;
use crate::sim::world::{Figure, SceneOrder, TablePosition};
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::text::TextLayoutInfo;
use std::collections::HashMap;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LabelLayout>();
    // After every Update system has written the labels' texts and layers and the playhead the
    // tokens' places; before transforms are propagated, so the labels move this frame.
    app.add_systems(
        PostUpdate,
        (place_entity_labels, draw_leaders).chain().before(bevy::transform::TransformSystems::Propagate),
    );
}

/// Font size of the names under tokens, world units.
pub(super) const NAME_FONT_PX: f32 = 0.55 * PX_PER_INCH;
/// Font size of the GM's state lines and trackers' readings, world units.
pub(super) const STATE_FONT_PX: f32 = 11.0;
/// Width of one glyph of Bevy's default font (FiraMono: 600 of 1000 units a glyph), in ems.
const GLYPH_EMS: f32 = 0.6;
/// Height of a line of text in ems: Bevy's default line height (`LineHeight::RelativeToFont(1.2)`).
const LINE_EMS: f32 = 1.2;

/// Space between a token's box and its label, world units.
pub const GAP: f32 = 2.0;
/// Margin kept round every placed label, world units: two labels are at least twice this apart.
pub const PADDING: f32 = 1.0;
/// Rings of spots round a token: the first touching its box, each further one a line further
/// out, with a leader line.
pub const RINGS: usize = 6;
/// Side of the cells the placed boxes are filed in for the overlap tests, world units.
const CELL: f32 = 64.0;

/// Which way a label looks first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefer {
    /// Above its token, then below (names).
    Above,
    /// Below its token, then above (state lines, readings).
    Below,
}

/// A label to place.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LabelRequest {
    /// The point it names: its token's centre.
    pub anchor: Vec2,
    /// Half the size of the token's box, which labels keep off where they can.
    pub clearance: Vec2,
    /// The label's size.
    pub size: Vec2,
    /// Placed before labels of lower priority.
    pub priority: u8,
    /// Where it looks first.
    pub prefer: Prefer,
}

/// Where a label goes.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Placement {
    /// From the anchor to the label's centre.
    pub offset: Vec2,
    /// Away from its token: draw a leader line to it.
    pub leader: bool,
    /// No room: not shown.
    pub hidden: bool,
}

impl LabelRequest {
    /// The token's box.
    pub fn anchor_box(&self) -> Rect {
        Rect::from_center_half_size(self.anchor, self.clearance)
    }

    /// The label's box with its centre `offset` from the anchor.
    pub fn box_at(&self, offset: Vec2) -> Rect {
        Rect::from_center_size(self.anchor + offset, self.size)
    }

    /// The spots the label tries, in order: the eight round the token (the preferred side
    /// first), then each ring further out; with whether the spot needs a leader line.
    pub fn candidates(&self) -> impl Iterator<Item = (Vec2, bool)> + '_ {
        const ABOVE_FIRST: [(f32, f32); 8] =
            [(0.0, 1.0), (0.0, -1.0), (1.0, 0.0), (-1.0, 0.0), (1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)];
        const BELOW_FIRST: [(f32, f32); 8] =
            [(0.0, -1.0), (0.0, 1.0), (1.0, 0.0), (-1.0, 0.0), (1.0, -1.0), (-1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
        let directions = match self.prefer {
            Prefer::Above => &ABOVE_FIRST,
            Prefer::Below => &BELOW_FIRST,
        };
        let reach = self.clearance + Vec2::splat(GAP) + self.size / 2.0;
        let line = self.size.y + GAP;
        (0..RINGS).flat_map(move |ring| {
            let out = reach + Vec2::splat(ring as f32 * line);
            directions.iter().map(move |&(dx, dy)| (Vec2::new(dx * out.x, dy * out.y), ring > 0))
        })
    }
}

/// Whether a label of `size` shows anything.
fn has_area(size: Vec2) -> bool {
    size.x > 0.0 && size.y > 0.0
}

/// Whether two boxes overlap (boxes that only touch do not).
pub fn overlaps(a: Rect, b: Rect) -> bool {
    a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y
}

/// Boxes filed by the cells they cover, for overlap tests that look only near a box.
#[derive(Default)]
struct BoxGrid(HashMap<(i32, i32), Vec<Rect>>);

impl BoxGrid {
    fn cells(r: Rect) -> impl Iterator<Item = (i32, i32)> {
        // Kept to a million world units (a table is at most 32,000 across): a box never
        // spans an endless run of cells.
        let cell = |v: f32| (v.clamp(-1e6, 1e6) / CELL).floor() as i32;
        let (x0, x1) = (cell(r.min.x), cell(r.max.x));
        let (y0, y1) = (cell(r.min.y), cell(r.max.y));
        (x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| (x, y)))
    }

    fn insert(&mut self, r: Rect) {
        for cell in Self::cells(r) {
            self.0.entry(cell).or_default().push(r);
        }
    }

    fn hits(&self, r: Rect) -> bool {
        Self::cells(r).any(|cell| self.0.get(&cell).is_some_and(|boxes| boxes.iter().any(|b| overlaps(*b, r))))
    }
}

/// Place `requests`, most important first (ties in the order given): each label takes the first
/// of its [candidates](LabelRequest::candidates) that overlaps no label placed before it (with
/// [`PADDING`] round each) and no box of `hard`, and, where such a spot exists, covers no token
/// (the requests' own anchor boxes and `soft`). A label none of whose spots is free is hidden.
/// The same requests always give the same placements. A request with no size has nothing to
/// show: it is left where it is, neither placed nor hidden.
pub fn place_labels(requests: &[LabelRequest], hard: &[Rect], soft: &[Rect]) -> Vec<Placement> {
    let mut taken = BoxGrid::default();
    for r in hard {
        taken.insert(*r);
    }
    let mut tokens = BoxGrid::default();
    for r in soft.iter().copied().chain(requests.iter().map(LabelRequest::anchor_box)) {
        tokens.insert(r);
    }
    let mut order: Vec<usize> = (0..requests.len()).collect();
    // Stable: equal priorities keep the order given.
    order.sort_by_key(|&i| std::cmp::Reverse(requests[i].priority));
    let mut placements = vec![Placement::default(); requests.len()];
    for i in order {
        let r = &requests[i];
        if !has_area(r.size) {
            continue;
        }
        let mut covering_a_token = None;
        let mut clear = None;
        for (offset, leader) in r.candidates() {
            let label = r.box_at(offset);
            if taken.hits(label.inflate(PADDING)) {
                continue;
            }
            if !tokens.hits(label) {
                clear = Some((offset, leader));
                break;
            }
            if covering_a_token.is_none() {
                covering_a_token = Some((offset, leader));
            }
        }
        placements[i] = match clear.or(covering_a_token) {
            Some((offset, leader)) => {
                taken.insert(r.box_at(offset).inflate(PADDING));
                Placement { offset, leader, hidden: false }
            }
            None => Placement { hidden: true, ..default() },
        };
    }
    placements
}

/// Place the labels the players may see (`public`) on their own, then the GM's (`gm`) round
/// them, round `fixed` boxes (labels that are not moved) and off the public labels' tokens.
pub fn place_tiers(public: &[LabelRequest], gm: &[LabelRequest], fixed: &[Rect]) -> (Vec<Placement>, Vec<Placement>) {
    let shown = place_labels(public, &[], &[]);
    let mut hard = fixed.to_vec();
    for (r, p) in public.iter().zip(&shown) {
        if !p.hidden && has_area(r.size) {
            hard.push(r.box_at(p.offset).inflate(PADDING));
        }
    }
    let soft: Vec<Rect> = public.iter().map(LabelRequest::anchor_box).collect();
    let gm_placed = place_labels(gm, &hard, &soft);
    (shown, gm_placed)
}

/// A leader line from the edge of the token's box to the nearest point of the label placed
/// `offset` from it.
pub fn leader_line(r: &LabelRequest, offset: Vec2) -> (Vec2, Vec2) {
    let label = r.box_at(offset);
    let end = Vec2::new(r.anchor.x.max(label.min.x).min(label.max.x), r.anchor.y.max(label.min.y).min(label.max.y));
    let d = end - r.anchor;
    let mut t = 1.0f32;
    if d.x.abs() > f32::EPSILON {
        t = t.min(r.clearance.x / d.x.abs());
    }
    if d.y.abs() > f32::EPSILON {
        t = t.min(r.clearance.y / d.y.abs());
    }
    (r.anchor + d * t, end)
}

/// The size of `text` in Bevy's default font at `font_px`: FiraMono is monospaced, so the
/// widest line's characters times 0.6 em by the lines times 1.2 em.
pub fn estimated_size(text: &str, font_px: f32) -> Vec2 {
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    let lines = text.lines().count().max(1);
    Vec2::new(widest as f32 * GLYPH_EMS * font_px, lines as f32 * LINE_EMS * font_px)
}

/// Which of its entity's labels a label is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum LabelRole {
    /// The entity's name (draw.rs).
    Name,
    /// The GM's line of state under a trap or figure (traps.rs).
    State,
    /// A tracker's reading of the trail (trails.rs).
    Reading,
}

impl LabelRole {
    /// The font size the label is drawn at.
    pub(super) fn font_px(self) -> f32 {
        match self {
            LabelRole::Name => NAME_FONT_PX,
            LabelRole::State | LabelRole::Reading => STATE_FONT_PX,
        }
    }

    fn prefer(self) -> Prefer {
        match self {
            LabelRole::Name => Prefer::Above,
            LabelRole::State | LabelRole::Reading => Prefer::Below,
        }
    }

    /// Names under the GM's lines where they meet.
    fn z(self) -> f32 {
        match self {
            LabelRole::Name => 5.0,
            LabelRole::State | LabelRole::Reading => 6.0,
        }
    }
}

/// What a label names, for its priority and the size of its token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Labelled {
    Figure,
    Trap,
    Herd,
    Fire,
    /// Sleepers, temptation sites, occult beings.
    Other,
}

impl Labelled {
    fn of(figure: bool, trap: bool, herd: bool, fire: bool) -> Self {
        if figure {
            Labelled::Figure
        } else if trap {
            Labelled::Trap
        } else if herd {
            Labelled::Herd
        } else if fire {
            Labelled::Fire
        } else {
            Labelled::Other
        }
    }

    /// Half the size of the token's box, world units: a figure's token is 0.8" across, a beast's
    /// 0.7" at most, a trap's marker its radius each way (kept to 0.25" to 1").
    fn clearance(self, trap_radius: f32) -> Vec2 {
        let inches = match self {
            Labelled::Figure | Labelled::Other => 0.4,
            Labelled::Trap => trap_radius.clamp(0.25, 1.0),
            Labelled::Herd => 0.35,
            Labelled::Fire => 0.25,
        };
        Vec2::splat(inches * PX_PER_INCH)
    }
}

/// How much a label matters: figures over traps over herds and fires, names over states.
fn priority(role: LabelRole, of: Labelled) -> u8 {
    match (role, of) {
        (LabelRole::Name, Labelled::Figure) => 100,
        (LabelRole::Name, Labelled::Trap) => 90,
        (LabelRole::State, Labelled::Figure) => 80,
        (LabelRole::State, _) => 70,
        (LabelRole::Name, Labelled::Herd | Labelled::Fire) => 60,
        (LabelRole::Name, Labelled::Other) => 50,
        (LabelRole::Reading, _) => 40,
    }
}

/// The request for a label of `role` reading `text` for an entity of kind `of` shown at
/// `anchor` (world units), `measured` the size Bevy's text layout gave it (if it has one yet);
/// none for an empty label.
pub(super) fn label_request(
    anchor: Vec2,
    text: &str,
    role: LabelRole,
    of: Labelled,
    trap_radius: f32,
    measured: Option<Vec2>,
) -> Option<LabelRequest> {
    if text.trim().is_empty() {
        return None;
    }
    let size = estimated_size(text, role.font_px()).max(measured.unwrap_or(Vec2::ZERO));
    Some(LabelRequest {
        anchor,
        clearance: of.clearance(trap_radius),
        size,
        priority: priority(role, of),
        prefer: role.prefer(),
    })
}

/// A label the collision pass places: the entity it names and which of its labels it is. Its
/// place and visibility are this module's to set.
#[derive(Component, Debug, Clone, Copy)]
pub(super) struct PlacedLabel {
    /// The entity named.
    pub(super) of: Entity,
    /// Which label.
    pub(super) role: LabelRole,
}

impl PlacedLabel {
    /// The name label of `of`.
    pub(super) fn name(of: Entity) -> Self {
        Self { of, role: LabelRole::Name }
    }

    /// The GM's state line of `of`.
    pub(super) fn state(of: Entity) -> Self {
        Self { of, role: LabelRole::State }
    }

    /// A tracker's reading.
    pub(super) fn reading(of: Entity) -> Self {
        Self { of, role: LabelRole::Reading }
    }
}

/// A label that its own code places (the obstacles' GM labels), drawn at `font_px`: placed
/// labels keep clear of it on the GM view.
#[derive(Component, Debug, Clone, Copy)]
pub(super) struct FixedLabel {
    /// Its font size, world units.
    pub(super) font_px: f32,
}

/// The labels' layout, as last worked out.
#[derive(Resource, Debug, Default)]
pub(super) struct LabelLayout {
    /// The texts of labels hidden for want of room, by the entity they name (the GM's hover
    /// shows them).
    pub(super) hidden: HashMap<Entity, Vec<String>>,
    /// Leader lines, world units, and whether the players see the label.
    leaders: Vec<(Vec2, Vec2, bool)>,
}

/// One label as the layout reads it.
#[derive(Debug, Clone, PartialEq)]
struct LabelInput {
    label: Entity,
    role: LabelRole,
    /// Scene order: what it names, that entity's place in the scene, which label, the label.
    order: (Labelled, u32, LabelRole, u64),
    request: Option<LabelRequest>,
    public: bool,
}

/// What the layout was last worked out from.
#[derive(Debug, Default, PartialEq)]
struct LayoutInputs {
    labels: Vec<LabelInput>,
    fixed: Vec<Rect>,
}

/// Place every label again when anything it is placed from changed: a label or token moved,
/// a text or a size changed, a label went to or from the GM layer.
fn place_entity_labels(
    mut labels: Query<(
        Entity,
        &PlacedLabel,
        &Text2d,
        Option<&TextLayoutInfo>,
        Option<&RenderLayers>,
        &mut Transform,
        &mut Visibility,
    )>,
    fixed: Query<(&FixedLabel, &Text2d, Option<&TextLayoutInfo>, &Transform), Without<PlacedLabel>>,
    targets: Query<(
        &TablePosition,
        Option<&Shown>,
        Option<&SceneOrder>,
        Has<Figure>,
        Option<&Trap>,
        Has<Herd>,
        Has<Fire>,
    )>,
    mut layout: ResMut<LabelLayout>,
    mut last: Local<LayoutInputs>,
) {
    let public_layer = RenderLayers::layer(PUBLIC_LAYER);
    let mut now = LayoutInputs::default();
    for (label, placed, text, measured, layers, _, _) in &labels {
        let Ok((position, shown, order, figure, trap, herd, fire)) = targets.get(placed.of) else { continue };
        let of = Labelled::of(figure, trap.is_some(), herd, fire);
        let anchor = to_world(shown.map_or(position.0, |s| s.at));
        let measured = measured.map(|m| m.size);
        let radius = trap.map_or(0.0, |t| t.0.radius);
        now.labels.push(LabelInput {
            label,
            role: placed.role,
            order: (of, order.map_or(u32::MAX, |o| o.0), placed.role, label.to_bits()),
            request: label_request(anchor, &text.0, placed.role, of, radius, measured),
            public: layers.is_none_or(|l| l.intersects(&public_layer)),
        });
    }
    now.labels.sort_by_key(|l| l.order);
    for (label, text, measured, transform) in &fixed {
        let size = estimated_size(&text.0, label.font_px).max(measured.map_or(Vec2::ZERO, |m| m.size));
        if has_area(size) {
            now.fixed.push(Rect::from_center_size(transform.translation.truncate(), size));
        }
    }
    if now == *last {
        return;
    }
    let placeable: Vec<(usize, LabelRequest)> =
        now.labels.iter().enumerate().filter_map(|(i, l)| l.request.map(|r| (i, r))).collect();
    let (public, gm): (Vec<(usize, LabelRequest)>, Vec<(usize, LabelRequest)>) =
        placeable.into_iter().partition(|(i, _)| now.labels[*i].public);
    let public_requests: Vec<LabelRequest> = public.iter().map(|(_, r)| *r).collect();
    let gm_requests: Vec<LabelRequest> = gm.iter().map(|(_, r)| *r).collect();
    let (public_placed, gm_placed) = place_tiers(&public_requests, &gm_requests, &now.fixed);
    let mut hidden: HashMap<Entity, Vec<String>> = HashMap::new();
    let mut leaders = Vec::new();
    let players = public.iter().zip(&public_placed).map(|(l, p)| (l, p, true));
    let gm_only = gm.iter().zip(&gm_placed).map(|(l, p)| (l, p, false));
    for ((index, request), placement, for_players) in players.chain(gm_only) {
        let input = &now.labels[*index];
        let Ok((_, placed, text, _, _, mut transform, mut visibility)) = labels.get_mut(input.label) else { continue };
        if placement.hidden {
            visibility.set_if_neq(Visibility::Hidden);
            hidden.entry(placed.of).or_default().push(text.0.clone());
            continue;
        }
        visibility.set_if_neq(Visibility::Inherited);
        // Only touch what moved: a touched transform is propagated and extracted again.
        let place = (request.anchor + placement.offset).extend(input.role.z());
        if transform.translation != place {
            transform.translation = place;
        }
        if placement.leader {
            let (from, to) = leader_line(request, placement.offset);
            leaders.push((from, to, for_players));
        }
    }
    layout.hidden = hidden;
    layout.leaders = leaders;
    *last = now;
}

/// Leader lines of public labels, drawn for everyone.
const PUBLIC_LEADER: Color = Color::srgba(1.0, 1.0, 1.0, 0.55);
/// Leader lines of the GM's labels.
const GM_LEADER: Color = Color::srgba(1.0, 0.85, 0.5, 0.55);

/// Redraw the leader lines when the layout changed: public labels' for everyone, the GM's on
/// the GM layer.
fn draw_leaders(mut lines: Retained, layout: Res<LabelLayout>) {
    if !layout.is_changed() {
        return;
    }
    lines.redraw("label leaders", PUBLIC_LAYER, |gizmos| {
        for (from, to, _) in layout.leaders.iter().filter(|l| l.2) {
            gizmos.line_2d(*from, *to, PUBLIC_LEADER);
        }
    });
    lines.redraw("label leaders (GM)", GM_LAYER, |gizmos| {
        for (from, to, _) in layout.leaders.iter().filter(|l| !l.2) {
            gizmos.line_2d(*from, *to, GM_LEADER);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name label 100 wide by a line of 21.12 (17.6 px text) on a figure's token.
    fn name_at(anchor: Vec2, priority: u8) -> LabelRequest {
        LabelRequest {
            anchor,
            clearance: Vec2::splat(0.4 * PX_PER_INCH),
            size: Vec2::new(100.0, LINE_EMS * NAME_FONT_PX),
            priority,
            prefer: Prefer::Above,
        }
    }

    /// How far above (or below) its anchor a label sits when it touches its token's box.
    fn beside(r: &LabelRequest) -> f32 {
        r.clearance.y + GAP + r.size.y / 2.0
    }

    fn near(a: Vec2, b: Vec2) -> bool {
        a.distance(b) < 1e-3
    }

    fn assert_apart(requests: &[LabelRequest], placed: &[Placement]) {
        let boxes: Vec<Rect> =
            requests.iter().zip(placed).filter(|(_, p)| !p.hidden).map(|(r, p)| r.box_at(p.offset)).collect();
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                assert!(!overlaps(*a, *b), "labels overlap: {a:?} {b:?}");
            }
        }
    }

    #[test]
    fn two_labels_at_one_anchor_get_different_boxes() {
        let r = name_at(Vec2::ZERO, 10);
        let placed = place_labels(&[r, r], &[], &[]);
        assert!(near(placed[0].offset, Vec2::new(0.0, beside(&r))), "the first above: {placed:?}");
        assert!(near(placed[1].offset, Vec2::new(0.0, -beside(&r))), "the second below: {placed:?}");
        assert!(placed.iter().all(|p| !p.hidden && !p.leader));
        assert_apart(&[r, r], &placed);
    }

    #[test]
    fn a_label_keeps_off_another_token_where_it_can() {
        // B's token is 40 above A's: A's name above would cover it, so A's goes below.
        let (a, b) = (name_at(Vec2::ZERO, 10), name_at(Vec2::new(0.0, 40.0), 10));
        let placed = place_labels(&[a, b], &[], &[]);
        assert!(near(placed[0].offset, Vec2::new(0.0, -beside(&a))), "{placed:?}");
        assert!(near(placed[1].offset, Vec2::new(0.0, beside(&b))), "{placed:?}");
        assert!(!overlaps(a.box_at(placed[0].offset), b.anchor_box()));
        assert!(!overlaps(b.box_at(placed[1].offset), a.anchor_box()));
        assert_apart(&[a, b], &placed);
        // Tokens everywhere round it: it covers one rather than vanish, in its first spot.
        let everywhere = Rect::from_center_half_size(Vec2::ZERO, Vec2::splat(10_000.0));
        let placed = place_labels(&[a], &[], &[everywhere]);
        assert!(!placed[0].hidden);
        assert!(near(placed[0].offset, Vec2::new(0.0, beside(&a))), "{placed:?}");
    }

    #[test]
    fn the_more_important_label_is_placed_first_and_ties_go_in_order() {
        let (low, high) = (name_at(Vec2::ZERO, 5), name_at(Vec2::ZERO, 9));
        let placed = place_labels(&[low, high], &[], &[]);
        assert!(near(placed[1].offset, Vec2::new(0.0, beside(&high))), "the important one above: {placed:?}");
        assert!(near(placed[0].offset, Vec2::new(0.0, -beside(&low))), "{placed:?}");
        // The same requests, the same layout; equal priorities in the order given.
        assert_eq!(place_labels(&[low, high], &[], &[]), placed);
        let other = name_at(Vec2::ZERO, 5);
        let placed = place_labels(&[low, other], &[], &[]);
        assert!(placed[0].offset.y > 0.0 && placed[1].offset.y < 0.0, "{placed:?}");
    }

    #[test]
    fn a_label_with_no_room_is_hidden_the_less_important_first() {
        let (low, high) = (name_at(Vec2::ZERO, 1), name_at(Vec2::ZERO, 2));
        // Every spot blocked but the first, which takes one label only.
        let (first, _) = low.candidates().next().unwrap();
        let first_box = low.box_at(first);
        let hard: Vec<Rect> = low
            .candidates()
            .map(|(offset, _)| low.box_at(offset))
            .filter(|b| !overlaps(b.inflate(2.0 * PADDING), first_box))
            .collect();
        assert_eq!(low.candidates().count(), 8 * RINGS);
        assert!(hard.len() > 8 * RINGS / 2, "most spots are blocked: {}", hard.len());
        for (a, b) in [(low, high), (high, low)] {
            let placed = place_labels(&[a, b], &hard, &[]);
            let (shown, hidden) = if a.priority > b.priority { (0, 1) } else { (1, 0) };
            assert!(!placed[shown].hidden && near(placed[shown].offset, first), "{placed:?}");
            assert!(placed[hidden].hidden, "{placed:?}");
        }
        // A label with nothing to show is neither placed nor hidden.
        let empty = LabelRequest { size: Vec2::ZERO, ..low };
        assert_eq!(place_labels(&[empty], &hard, &[]), vec![Placement::default()]);
    }

    #[test]
    fn spots_further_out_get_leader_lines() {
        let r = name_at(Vec2::ZERO, 10);
        let requests = [r; 6];
        let placed = place_labels(&requests, &[], &[]);
        assert_apart(&requests, &placed);
        // Above, below, right, left of the token; the diagonals overlap those (100 wide); then a
        // line further above and below, with leaders.
        let side = r.clearance.x + GAP + r.size.x / 2.0;
        let out = beside(&r) + r.size.y + GAP;
        let want = [(0.0, beside(&r)), (0.0, -beside(&r)), (side, 0.0), (-side, 0.0), (0.0, out), (0.0, -out)];
        for (p, (x, y)) in placed.iter().zip(want) {
            assert!(near(p.offset, Vec2::new(x, y)) && !p.hidden, "{placed:?}");
        }
        assert_eq!(placed.iter().map(|p| p.leader).collect::<Vec<_>>(), [false, false, false, false, true, true]);
        // The leader runs from the token's box to the label's box.
        let (from, to) = leader_line(&r, placed[4].offset);
        assert!(near(from, Vec2::new(0.0, r.clearance.y)), "{from}");
        assert!(near(to, Vec2::new(0.0, r.box_at(placed[4].offset).min.y)), "{to}");
    }

    #[test]
    fn the_players_labels_are_placed_as_if_the_gms_were_not_there() {
        let figure = name_at(Vec2::ZERO, 100);
        // A hidden trap's name and a GM's line right on the figure.
        let trap = name_at(Vec2::new(10.0, 5.0), 90);
        let state = LabelRequest { prefer: Prefer::Below, priority: 80, ..figure };
        let fixed = [Rect::from_center_size(Vec2::new(0.0, -40.0), Vec2::new(300.0, 20.0))];
        let (public, gm) = place_tiers(&[figure], &[trap, state], &fixed);
        assert_eq!(public, place_labels(&[figure], &[], &[]), "the projector's layout gives nothing away");
        let mut boxes: Vec<Rect> = vec![figure.box_at(public[0].offset)];
        for (r, p) in [trap, state].iter().zip(&gm) {
            assert!(!p.hidden, "{gm:?}");
            let b = r.box_at(p.offset);
            assert!(!overlaps(b, fixed[0]), "{b:?} covers the fixed label");
            assert!(!overlaps(b, figure.anchor_box()), "{b:?} covers the figure");
            assert!(boxes.iter().all(|o| !overlaps(*o, b)), "{b:?} overlaps {boxes:?}");
            boxes.push(b);
        }
    }

    #[test]
    fn sizes_are_worked_out_from_the_monospaced_font() {
        let size = estimated_size("Greta", NAME_FONT_PX);
        assert!(near(size, Vec2::new(5.0 * 0.6 * 17.6, 1.2 * 17.6)), "{size}");
        assert_eq!(estimated_size("", STATE_FONT_PX).x, 0.0);
        let two_lines = estimated_size("ab\nabcd", 10.0);
        assert!(near(two_lines, Vec2::new(24.0, 24.0)), "{two_lines}");
        // A measured size wider than the estimate is taken; a narrower one is not.
        let anchor = Vec2::ZERO;
        let r = label_request(anchor, "Greta", LabelRole::Name, Labelled::Figure, 0.0, Some(Vec2::new(80.0, 10.0)));
        assert!(near(r.map(|r| r.size).unwrap_or_default(), Vec2::new(80.0, 1.2 * 17.6)));
        assert_eq!(label_request(anchor, " ", LabelRole::State, Labelled::Trap, 0.5, None), None);
        // Figures' names first, trackers' readings last.
        let order = [
            priority(LabelRole::Name, Labelled::Figure),
            priority(LabelRole::Name, Labelled::Trap),
            priority(LabelRole::State, Labelled::Figure),
            priority(LabelRole::State, Labelled::Trap),
            priority(LabelRole::Name, Labelled::Herd),
            priority(LabelRole::Name, Labelled::Other),
            priority(LabelRole::Reading, Labelled::Figure),
        ];
        assert!(order.windows(2).all(|w| w[0] > w[1]), "{order:?}");
    }

    /// The tomb after three moves (`tabula open scenes/tomb.ron --moves 3`), its labels spawned,
    /// written and placed by the view's own systems, headless.
    fn tomb_after_three_moves() -> App {
        let scene = crate::sim::testing::scene_from_str(include_str!("../../scenes/tomb.ron"));
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .init_resource::<super::super::SceneGeneration>()
            .init_resource::<LabelLayout>()
            .add_plugins((crate::sim::plugin, super::super::playhead::plugin));
        crate::sim::world::spawn_scene(app.world_mut(), &scene, scene.seed);
        for _ in 0..3 {
            // As the view steps a move (history::step).
            super::super::playhead::BeforeMove::capture(app.world_mut());
            assert!(crate::sim::step_move(app.world_mut()));
        }
        app.add_systems(Startup, (super::super::draw::spawn_labels, super::super::traps::spawn_state_labels));
        app.add_systems(
            Update,
            (super::super::draw::reveal_trap_labels, super::super::traps::update_state_labels)
                .after(super::super::playhead::PlayheadSystems),
        );
        app.add_systems(PostUpdate, place_entity_labels);
        app.update();
        app.update();
        app
    }

    #[test]
    fn no_two_labels_overlap_on_the_tomb_after_three_moves() {
        let mut app = tomb_after_three_moves();
        let world = app.world_mut();
        let mut query = world.query::<(&PlacedLabel, &Text2d, &Transform, &Visibility)>();
        let labels: Vec<(PlacedLabel, String, Vec2, bool)> = query
            .iter(world)
            .filter(|(_, text, ..)| !text.0.trim().is_empty())
            .map(|(p, text, t, v)| (*p, text.0.clone(), t.translation.truncate(), *v == Visibility::Hidden))
            .collect();
        // 4 figures' and 13 traps' names, and every trap's state line.
        assert!(labels.len() >= 30, "{} labels", labels.len());
        let boxes: Vec<(&str, Rect)> = labels
            .iter()
            .filter(|l| !l.3)
            .map(|(p, text, at, _)| {
                (text.as_str(), Rect::from_center_size(*at, estimated_size(text, p.role.font_px())))
            })
            .collect();
        for (i, (a, box_a)) in boxes.iter().enumerate() {
            for (b, box_b) in &boxes[i + 1..] {
                assert!(!overlaps(*box_a, *box_b), "\"{a}\" {box_a:?} overlaps \"{b}\" {box_b:?}");
            }
        }
        let hidden: Vec<&str> = labels.iter().filter(|l| l.3).map(|l| l.1.as_str()).collect();
        eprintln!("tomb after 3 moves: {} labels shown, {} hidden: {hidden:?}", boxes.len(), hidden.len());
        assert!(hidden.len() * 10 <= labels.len(), "too many hidden: {hidden:?}");
        // Where the labels went before this pass (names 0.7" above, states 0.75" below), some
        // overlapped: "crushing walls" at (36, 11) and "false floor" at (38, 11), for one.
        let before: Vec<Rect> = labels
            .iter()
            .filter_map(|(p, text, ..)| {
                let at = to_world(world.get::<TablePosition>(p.of)?.0);
                let up = if p.role == LabelRole::Name { 0.7 } else { -0.75 };
                let size = estimated_size(text, p.role.font_px());
                Some(Rect::from_center_size(at + Vec2::new(0.0, up * PX_PER_INCH), size))
            })
            .collect();
        let overlapping = (0..before.len())
            .flat_map(|i| (i + 1..before.len()).map(move |j| (i, j)))
            .filter(|&(i, j)| overlaps(before[i], before[j]))
            .count();
        assert!(overlapping > 0, "the old layout overlapped on the tomb");
        // The party's names are the players'; the GM's state lines are not.
        let public: Vec<(PlacedLabel, String)> = world
            .query_filtered::<(&PlacedLabel, &Text2d), Without<RenderLayers>>()
            .iter(world)
            .map(|(p, t)| (*p, t.0.clone()))
            .collect();
        for name in ["Captain Hesse", "Greta", "Runner Klaus", "Old Imhotep"] {
            assert!(public.iter().any(|(_, t)| t == name), "{name} not on the projector: {public:?}");
        }
        assert!(public.iter().all(|(p, _)| p.role == LabelRole::Name), "a GM's line on the projector: {public:?}");
    }
}
