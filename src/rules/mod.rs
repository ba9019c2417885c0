//! The rules as pure functions: inputs and a dice source in, an outcome with every roll out.
//! One file per source topic; no ECS types here. Each rule function cites its source.

pub mod character;
pub mod dice;
pub mod fire;
pub mod herds;
pub mod khemri_traps;
pub mod lighting;
pub mod morval_traps;
pub mod movement;
pub mod sleepers;
#[cfg(test)]
pub(crate) mod stats;
