//! End of move: lasting conditions count down and expire.

use super::clock::MoveClock;
use super::log::{EventLog, LogEvent};
use super::world::{Conditions, SceneOrder, in_scene_order};
use super::{Move, MoveSystems};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Move, expire_conditions.in_set(MoveSystems::Bookkeeping));
}

fn expire_conditions(
    mut figures: Query<(&SceneOrder, &Name, &mut Conditions)>,
    clock: Res<MoveClock>,
    mut log: ResMut<EventLog>,
) {
    let figures = in_scene_order(figures.iter_mut(), |item| *item.0);
    for (_, name, mut conditions) in figures {
        let mut expired = Vec::new();
        conditions.0.retain_mut(|c| match c.moves_left.as_mut() {
            Some(left) => {
                *left = left.saturating_sub(1);
                if *left == 0 {
                    expired.push(c.name.clone());
                    false
                } else {
                    true
                }
            }
            None => true,
        });
        for condition in expired {
            log.push(
                &clock,
                LogEvent::new("bookkeeping", "condition_expired", name.as_str())
                    .outcome(super::outcome::BookkeepingOutcome::Expired)
                    .field("condition", condition),
            );
        }
    }
}
