//! Pictures that figures, herds and traps name for their tokens (`picture`): a PNG or WebP file
//! beside the scene file or under the project's `assets/` folder. Only the path is checked
//! here; whether the file is there is the view's business (a missing one is a warning there
//! and the plain token, never a load error: a scene travels without its pictures). Saving the
//! scene to another folder copies along the pictures found beside its old file
//! (`crate::document::file`).

/// Longest `picture` path, in characters.
pub const MAX_PICTURE_CHARS: usize = 260;

/// Largest picture file read (by the view) or copied along by Save as, in bytes.
pub const MAX_PICTURE_BYTES: u64 = 32 * 1024 * 1024;

/// The picture file endings read (lower case: the asset server picks its reader by them).
pub const PICTURE_EXTENSIONS: [&str; 2] = ["png", "webp"];

/// `picture` with its `.` and `..` parts worked out and its parts joined by `/`
/// (`art/../orc.png` is `orc.png`); none when a `..` climbs above the folder it starts in.
pub fn normal_picture_path(picture: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in picture.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            name => parts.push(name),
        }
    }
    Some(parts.join("/"))
}

/// What is wrong with `picture` as a picture path, none when it is fine: it must name a file
/// relative to the scene's folder or `assets/` (no leading `/`, no drive or `source://`, `/`
/// between folders), not climb out of it with `..`, end in `.png` or `.webp`, hold no `#` (the
/// asset server reads what follows as a label) and be at most [`MAX_PICTURE_CHARS`] long.
pub fn picture_problem(picture: &str) -> Option<String> {
    let chars = picture.chars().count();
    if chars > MAX_PICTURE_CHARS {
        return Some(format!("is {chars} characters, longer than the {MAX_PICTURE_CHARS} allowed"));
    }
    if picture.trim().is_empty() {
        return Some("must name a file".into());
    }
    if picture.chars().any(char::is_control) {
        return Some("must not hold control characters".into());
    }
    if picture.contains('\\') {
        return Some("must separate folders with /, not \\".into());
    }
    if picture.starts_with('/') || picture.contains(':') {
        return Some("must be a path relative to the scene's folder or assets/, not an absolute one".into());
    }
    if picture.contains('#') {
        return Some("must not hold # (the asset server reads what follows as a label)".into());
    }
    let Some(normal) = normal_picture_path(picture) else {
        return Some("must not climb out of the scene's folder or assets/ with ..".into());
    };
    let file = normal.rsplit('/').next().unwrap_or("");
    match file.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && PICTURE_EXTENSIONS.contains(&ext) => None,
        _ if normal.is_empty() => Some("must name a file".into()),
        _ => Some("must be a .png or .webp file (the ending in lower case)".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relative_png_or_webp_is_a_picture() {
        for good in ["goblin.png", "tokens/orc.webp", "art/../goblin.png", "./a/b.png", "a b/c-d_e.png"] {
            assert_eq!(picture_problem(good), None, "{good}");
        }
        assert_eq!(normal_picture_path("art/../goblin.png").as_deref(), Some("goblin.png"));
        assert_eq!(normal_picture_path("./a//b.png").as_deref(), Some("a/b.png"));
        assert_eq!(normal_picture_path("a/../../b.png"), None);
        // 256 + ".png" is 260 characters: the most allowed.
        let longest = format!("{}.png", "a".repeat(256));
        assert_eq!(longest.chars().count(), MAX_PICTURE_CHARS);
        assert_eq!(picture_problem(&longest), None);
    }

    #[test]
    fn a_picture_path_that_escapes_or_is_no_picture_is_refused() {
        let cases = [
            ("", "must name a file"),
            ("  ", "must name a file"),
            ("a/..", "must name a file"),
            ("/etc/goblin.png", "not an absolute one"),
            ("C:/art/goblin.png", "not an absolute one"),
            ("scene://goblin.png", "not an absolute one"),
            ("../goblin.png", "climb out"),
            ("art/../../goblin.png", "climb out"),
            ("art\\goblin.png", "with /"),
            ("goblin#face.png", "label"),
            ("goblin.jpg", ".png or .webp"),
            ("goblin.PNG", ".png or .webp"),
            ("goblin", ".png or .webp"),
            (".png", ".png or .webp"),
            ("tokens/", ".png or .webp"),
            ("gob\nlin.png", "control characters"),
        ];
        for (bad, why) in cases {
            let problem = picture_problem(bad).unwrap_or_else(|| panic!("{bad:?} was accepted"));
            assert!(problem.contains(why), "{bad:?}: {problem}");
        }
        let too_long = format!("{}.png", "a".repeat(257));
        assert_eq!(
            picture_problem(&too_long).as_deref(),
            Some("is 261 characters, longer than the 260 allowed"),
            "one character over"
        );
    }

    const SCENE: &str = "(version: 1, table: (width: 20, height: 10),
        figures: [(name: \"Ann\", position: (1, 1), picture: \"ann.png\"), (name: \"Bob\", position: (2, 2))],
        traps: [(name: \"Pit\", kind: pit(depth: 1, bottom: spiked), position: (5, 5),
                 picture: Some(\"art/pit.webp\"))],
        herds: [(name: \"Cows\", beast: cow, count: 2, position: (12, 5), picture: \"tokens/default-beast.png\")])";

    /// `picture` on figures, traps and herds: read (bare or `Some`), written only when set, read
    /// back the same.
    #[test]
    fn pictures_round_trip_and_are_written_only_when_set() {
        let path = std::path::Path::new("pictures.ron");
        let scene = crate::scene::parse_scene(SCENE, path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(scene.figures[0].picture.as_deref(), Some("ann.png"));
        assert_eq!(scene.figures[1].picture, None);
        assert_eq!(scene.traps[0].picture.as_deref(), Some("art/pit.webp"));
        assert_eq!(scene.herds[0].picture.as_deref(), Some("tokens/default-beast.png"));
        let saved = crate::scene::scene_to_ron(&scene).expect("serialises");
        assert_eq!(saved.matches("picture").count(), 3, "{saved}");
        let back = crate::scene::parse_scene(&saved, path).unwrap_or_else(|e| panic!("{e}"));
        let pictures = |s: &crate::scene::Scene| {
            let mut v: Vec<Option<String>> = s.figures.iter().map(|f| f.picture.clone()).collect();
            v.extend(s.traps.iter().map(|t| t.picture.clone()));
            v.extend(s.herds.iter().map(|h| h.picture.clone()));
            v
        };
        assert_eq!(pictures(&back), pictures(&scene));
        assert_eq!(crate::scene::scene_to_ron(&back).expect("serialises"), saved, "saved again the same");
    }

    /// A bad path is a problem naming the entity and the field; a file that is not there is not.
    #[test]
    fn a_bad_picture_path_names_the_entity_and_field() {
        let path = std::path::Path::new("pictures.ron");
        let bad = SCENE.replace("\"ann.png\"", "\"../ann.png\"").replace("art/pit.webp", "pit.gif");
        let err = crate::scene::parse_scene(&bad, path).unwrap_err().to_string();
        assert!(
            err.contains("figure \"Ann\": picture: \"../ann.png\" must not climb out of the scene's folder"),
            "{err}"
        );
        assert!(err.contains("trap \"Pit\": picture: \"pit.gif\" must be a .png or .webp file"), "{err}");
        let herd = SCENE.replace("tokens/default-beast.png", "/tmp/cow.png");
        let err = crate::scene::parse_scene(&herd, path).unwrap_err().to_string();
        assert!(err.contains("herd \"Cows\": picture: \"/tmp/cow.png\" must be a path relative"), "{err}");
        // None of the files exists: still a valid scene.
        assert!(crate::scene::parse_scene(SCENE, path).is_ok());
    }
}
