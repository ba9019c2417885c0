//! The fire as a saved scene carries it on: the arrival time of every cell the fire has reached
//! or is on its way to, so loading a save costs one pass over the grid, not a replay of every
//! ignition (which could be 100,000 large discs) and the file stays small.
//!
//! `arrivals` is base64 (standard alphabet, padded) of a bitmap of reached cells, row by row,
//! 1 bit per cell from the lowest bit of each byte, followed by one little-endian `f32` arrival
//! time (rounds on the scene clock) per reached cell, in the same order. At most
//! [`MAX_FIRE_STATE_CHARS`] characters: a fully reached grid of the largest size.

use serde::{Deserialize, Serialize};

use crate::scene::base64::encode_base64;
use crate::sim::fire_front::{ExactFront, MAX_SCENE_CELLS};

/// Longest `arrivals` text: base64 of the bitmap and one time for each of [`MAX_SCENE_CELLS`] cells.
pub const MAX_FIRE_STATE_CHARS: usize = (MAX_SCENE_CELLS / 8 + 4 * MAX_SCENE_CELLS).div_ceil(3) * 4;

/// The fire grid's state, written by the simulation into a saved scene.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireState {
    /// Columns of the grid it was saved from.
    pub width: u32,
    /// Rows of the grid it was saved from.
    pub height: u32,
    /// The grid's cell size, inches.
    pub cell_size: f32,
    /// Every arrival up to this time (rounds) is settled; later ones are the front on its way.
    pub settled_until: f32,
    /// The reached cells and their arrival times, encoded (see the module docs).
    pub arrivals: String,
    /// Ignitions of convex patches the exact front is still burning through (issue 15): with
    /// them a loaded save goes on exactly as the run it came from. At most [`MAX_EXACT_FRONTS`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exact_fronts: Vec<ExactFront>,
}

/// Most `exact_fronts` a saved fire state may list.
pub const MAX_EXACT_FRONTS: usize = 65_536;

/// Why a saved fire state cannot be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FireStateError {
    /// Not base64.
    #[error("arrivals: not base64 ({0})")]
    NotBase64(&'static str),
    /// Too short or too long for the grid it names.
    #[error("arrivals: {bytes} bytes, {expected} expected for a {width}×{height} grid with {reached} cells reached")]
    WrongLength {
        /// Bytes decoded.
        bytes: usize,
        /// Bytes the bitmap says there should be.
        expected: usize,
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
        /// Cells the bitmap marks as reached.
        reached: usize,
    },
    /// The grid it names is larger than any grid can be.
    #[error("{width}×{height} cells is more than the {MAX_SCENE_CELLS} a fire grid may have")]
    TooLarge {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// The text is longer than a full grid's state.
    #[error("arrivals: {0} characters, more than the {MAX_FIRE_STATE_CHARS} a full grid needs")]
    TooLong(usize),
    /// Too many exact fronts.
    #[error("exact_fronts: {0} of them, more than the {MAX_EXACT_FRONTS} allowed")]
    TooManyExactFronts(usize),
    /// An exact front's numbers are not finite, or its radius or time is below 0.
    #[error("exact_fronts: {0:?} must have finite numbers, a radius and a time of at least 0")]
    BadExactFront(ExactFront),
    /// An arrival time is not a number of rounds.
    #[error("arrivals: cell {cell} has arrival time {time}, which must be finite and at least 0")]
    BadTime {
        /// The cell, row by row.
        cell: u32,
        /// Its time.
        time: f32,
    },
}

impl FireState {
    /// Encode a grid's reached cells (`(index row by row, arrival)`, ascending indices).
    pub fn encode(
        width: u32,
        height: u32,
        cell_size: f32,
        settled_until: f32,
        reached: impl IntoIterator<Item = (u32, f32)>,
    ) -> Self {
        let cells = width as usize * height as usize;
        let mut bitmap = vec![0u8; cells.div_ceil(8)];
        let mut times = Vec::new();
        for (index, time) in reached {
            let i = index as usize;
            if let Some(byte) = bitmap.get_mut(i / 8) {
                *byte |= 1 << (i % 8);
                times.extend_from_slice(&time.to_le_bytes());
            }
        }
        bitmap.extend_from_slice(&times);
        FireState {
            width,
            height,
            cell_size,
            settled_until,
            arrivals: encode_base64(&bitmap),
            exact_fronts: Vec::new(),
        }
    }

    /// The reached cells and their arrival times, ascending by cell.
    pub fn decode(&self) -> Result<Vec<(u32, f32)>, FireStateError> {
        let cells = self.width as usize * self.height as usize;
        if cells > MAX_SCENE_CELLS {
            return Err(FireStateError::TooLarge { width: self.width, height: self.height });
        }
        if self.arrivals.len() > MAX_FIRE_STATE_CHARS {
            return Err(FireStateError::TooLong(self.arrivals.len()));
        }
        if self.exact_fronts.len() > MAX_EXACT_FRONTS {
            return Err(FireStateError::TooManyExactFronts(self.exact_fronts.len()));
        }
        if let Some(front) = self
            .exact_fronts
            .iter()
            .find(|f| !([f.x, f.y, f.radius, f.time].iter().all(|v| v.is_finite()) && f.radius >= 0.0 && f.time >= 0.0))
        {
            return Err(FireStateError::BadExactFront(*front));
        }
        let bytes = base64_decode(&self.arrivals)?;
        let bitmap_len = cells.div_ceil(8);
        let bitmap = bytes.get(..bitmap_len).unwrap_or(&bytes);
        let reached: usize = (0..cells).filter(|&i| bitmap.get(i / 8).is_some_and(|b| b & (1 << (i % 8)) != 0)).count();
        let expected = bitmap_len + 4 * reached;
        if bytes.len() != expected {
            return Err(FireStateError::WrongLength {
                bytes: bytes.len(),
                expected,
                width: self.width,
                height: self.height,
                reached,
            });
        }
        let mut times = bytes[bitmap_len..].chunks_exact(4);
        let mut out = Vec::with_capacity(reached);
        for cell in 0..cells {
            if bitmap[cell / 8] & (1 << (cell % 8)) == 0 {
                continue;
            }
            let Some(chunk) = times.next() else { break };
            let time = f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
            if !(time.is_finite() && time >= 0.0) {
                return Err(FireStateError::BadTime { cell: cell as u32, time });
            }
            out.push((cell as u32, time));
        }
        Ok(out)
    }
}

fn base64_decode(text: &str) -> Result<Vec<u8>, FireStateError> {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return Err(FireStateError::NotBase64("length is not a multiple of 4"));
    }
    let value = |c: u8| -> Result<u32, FireStateError> {
        match c {
            b'A'..=b'Z' => Ok(u32::from(c - b'A')),
            b'a'..=b'z' => Ok(u32::from(c - b'a') + 26),
            b'0'..=b'9' => Ok(u32::from(c - b'0') + 52),
            b'+' => Ok(62),
            b'/' => Ok(63),
            _ => Err(FireStateError::NotBase64("a character outside the base64 alphabet")),
        }
    };
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let last = bytes.len() / 4;
    for (i, quad) in bytes.chunks_exact(4).enumerate() {
        let padding = quad.iter().rev().take_while(|&&c| c == b'=').count();
        if padding > 2 || (padding > 0 && i + 1 != last) {
            return Err(FireStateError::NotBase64("padding in the middle"));
        }
        let mut n = 0u32;
        for &c in &quad[..4 - padding] {
            n = (n << 6) | value(c)?;
        }
        n <<= 6 * padding as u32;
        let decoded = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&decoded[..3 - padding]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_4648_vectors() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode_base64(plain.as_bytes()), encoded);
            assert_eq!(base64_decode(encoded).as_deref(), Ok(plain.as_bytes()));
        }
        assert!(base64_decode("Zm9").is_err());
        assert!(base64_decode("Zm=v").is_err());
        assert!(base64_decode("Zg==Zg==").is_err());
        assert!(base64_decode("Z!9v").is_err());
    }

    #[test]
    fn states_round_trip_exactly() {
        let reached = vec![(0, 0.0), (3, 1.5), (8, 2.25), (9, f32::MIN_POSITIVE), (19, 1e6)];
        let state = FireState::encode(5, 4, 0.1, 2.0, reached.clone());
        assert_eq!(state.decode(), Ok(reached));
        let empty = FireState::encode(5, 4, 0.1, 2.0, []);
        assert_eq!(empty.decode(), Ok(vec![]));
    }

    #[test]
    fn broken_states_are_errors() {
        let mut state = FireState::encode(5, 4, 0.1, 2.0, [(1, 1.0)]);
        state.height = 40;
        assert!(matches!(state.decode(), Err(FireStateError::WrongLength { .. })));
        let nan = FireState::encode(5, 4, 0.1, 2.0, [(1, f32::NAN)]);
        assert_eq!(nan.decode().map_err(|e| matches!(e, FireStateError::BadTime { cell: 1, .. })), Err(true));
        let huge = FireState { width: 5000, height: 5000, ..state.clone() };
        assert!(matches!(huge.decode(), Err(FireStateError::TooLarge { .. })));
    }
}
