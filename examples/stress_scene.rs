//! Writes the stress scene for measuring the GM view: 2,000 figures, 500 traps, 50 herds of
//! 20 and a 72"x48" table of brushwood burning from its centre.
//!
//! ```sh
//! cargo run --release --example stress_scene > /tmp/stress.ron
//! tabula open /tmp/stress.ron --moves 20 --measure-frames 300
//! ```

fn main() {
    print!("{}", tabula::scene::stress::stress_scene_ron());
}
