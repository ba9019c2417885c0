//! Creature zones (000 "Neuserks, Okserks & Chuserks"): bulls, wolves, dogs and the like
//! check the strangers within their zone.

use super::{Beasts, FigureQuery, Herd, beasts_near_figures, figures_in_order, figures_near_herds, herds_in_order};
use crate::rules::herds::{ZoneResponse, resolve_zone_strangers};
use crate::sim::log::{LogEvent, round_to_thousandths_f32};
use crate::sim::referee::Referee;
use crate::sim::world::SceneOrder;
use bevy::prelude::*;

// ---------------------------------------------------------------------------------------------
// 5. Zones
// ---------------------------------------------------------------------------------------------

/// 000 "Neuserks, Okserks & Chuserks": every herd with a zone looks at the strangers (figures
/// of another side) within its zone of any of its beasts; the attack is an event.
pub(super) fn check_zones(
    figures: FigureQuery,
    herds: Query<(Entity, &SceneOrder), With<Herd>>,
    state: Query<(&Name, &Herd, &Beasts)>,
    referee: Referee,
) {
    let Referee { clock, mut dice, mut log } = referee;
    let zoned: Vec<Entity> = herds_in_order(&herds)
        .into_iter()
        .filter(|&e| state.get(e).is_ok_and(|(_, h, _)| h.0.zone_creature().is_some()))
        .collect();
    if zoned.is_empty() {
        return;
    }
    let figures = figures_in_order(&figures);
    let reach = zoned
        .iter()
        .filter_map(|&e| state.get(e).ok().and_then(|(_, h, _)| h.0.zone_creature()))
        .map(|z| z.zone_in)
        .fold(0.0f32, f32::max);
    let beasts: Vec<&Beasts> = zoned.iter().filter_map(|&e| state.get(e).ok().map(|(_, _, b)| b)).collect();
    let near = figures_near_herds(&beasts_near_figures(&figures, &beasts, reach), zoned.len());
    for (h, &entity) in zoned.iter().enumerate() {
        let Ok((name, herd, _)) = state.get(entity) else { continue };
        let Some(creature) = herd.0.zone_creature() else { continue };
        // The figures with a beast of this herd within reach, in scene order.
        let strangers: Vec<(&str, f32)> = near[h]
            .iter()
            .map(|&(f, d)| (&figures[f], d))
            .filter(|(f, _)| f.side != herd.0.side)
            .map(|(f, d)| (f.name, d))
            .filter(|&(_, d)| d <= creature.zone_in)
            .collect();
        if strangers.is_empty() {
            continue;
        }
        let decision = resolve_zone_strangers(&creature, strangers.len() as u32, &mut *dice);
        let mut e = LogEvent::new("herds", "zone", name.as_str())
            .outcome(decision.response)
            .field("temper", creature.temper.id())
            .field("zone", creature.zone_in)
            .field("strangers_in_zone", decision.strangers_in_zone)
            .field("strangers", strangers.iter().map(|(n, _)| *n).collect::<Vec<_>>())
            .field("distances", strangers.iter().map(|(_, d)| round_to_thousandths_f32(*d)).collect::<Vec<_>>());
        if let Some(roll) = decision.roll {
            e = e.roll(roll);
        }
        if decision.response == ZoneResponse::Attacks {
            e = e.field("attacks", strangers.iter().map(|(n, _)| *n).collect::<Vec<_>>());
        }
        log.push(&clock, e);
    }
}
