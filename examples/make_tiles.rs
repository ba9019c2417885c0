//! Writes the material tiles under `assets/tiles/` (one 64×64 grey PNG a material) from the
//! patterns the view draws in code (`src/view/patterns.rs`), so the files and the code agree
//! pixel for pixel; a unit test there checks they still do.
//!
//! ```sh
//! cargo run --example make_tiles              # into this checkout's assets/
//! cargo run --example make_tiles -- FOLDER    # into FOLDER/tiles/
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let assets = match std::env::args_os().nth(1) {
        Some(folder) => PathBuf::from(folder),
        None => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/assets")),
    };
    match tabula::view::write_tiles(&assets) {
        Ok(written) => {
            for path in written {
                println!("{}", path.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}: {e}", assets.display());
            ExitCode::FAILURE
        }
    }
}
