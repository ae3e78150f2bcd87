//! Checks of the crate's layers, so that an upward import cannot come back unnoticed.
//!
//! From the bottom: [`crate::splitmix`] and [`crate::score`] import nothing from the crate;
//! [`crate::games`] (the rules) imports only itself and `splitmix`; [`crate::protocol`] imports
//! the rules and the score, never the search or anything above it; only the match runner's own
//! files (`arena/` and `bin/arena/`) import [`crate::arena`]. Within `arena/` and `session/`, no
//! two files import each other; one of the three games chosen at run time is written once, in
//! `games/any.rs`. The checks read the source files and look at their code lines (comments are
//! skipped), as a reader would.

use std::fs;
use std::path::{Path, PathBuf};

/// The crate's `src` directory.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file at `path` (a file, or a directory searched recursively).
fn rust_files(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut out = Vec::new();
    for entry in fs::read_dir(path).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The crate's modules that the code lines of the files at `path` (relative to `src`) name as
/// `crate::MODULE` or `engine::MODULE`, each with the file and line that names it.
fn named_modules(path: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for file in rust_files(&src().join(path)) {
        let text = fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for prefix in ["crate::", "engine::"] {
                for (at, _) in code.match_indices(prefix) {
                    let rest = &code[at + prefix.len()..];
                    let end = rest
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(rest.len());
                    let place = format!("{}:{}", file.display(), i + 1);
                    out.push((rest[..end].to_string(), place));
                }
            }
        }
    }
    out
}

/// Fails with every place where the files at `path` name a module outside `allowed`.
fn only_imports(path: &str, allowed: &[&str]) {
    let bad: Vec<String> = named_modules(path)
        .into_iter()
        .filter(|(module, _)| !allowed.contains(&module.as_str()))
        .map(|(module, place)| format!("{place}: {module}"))
        .collect();
    assert!(
        bad.is_empty(),
        "{path} may import only {allowed:?} from the crate, but names:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_bottom_modules_import_nothing_from_the_crate() {
    only_imports("score.rs", &[]);
    only_imports("splitmix.rs", &[]);
}

#[test]
fn the_rules_import_only_themselves_and_the_generator() {
    only_imports("games", &["games", "splitmix", "with_game"]);
}

#[test]
fn the_protocol_does_not_import_the_search() {
    only_imports("protocol", &["games", "score"]);
}

#[test]
fn only_the_match_runner_imports_the_arena() {
    let bad: Vec<String> = named_modules(".")
        .into_iter()
        .filter(|(module, place)| {
            module == "arena" && !place.contains("/src/arena/") && !place.contains("/bin/arena/")
        })
        .map(|(_, place)| place)
        .collect();
    assert!(
        bad.is_empty(),
        "arena named outside it:\n{}",
        bad.join("\n")
    );
}

/// The code lines (comments skipped) of a file, each with its number from 1.
fn code_lines(file: &Path) -> Vec<(usize, String)> {
    let text = fs::read_to_string(file).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .map(|(i, line)| (i + 1, line.to_string()))
        .collect()
}

/// "One of the three games, chosen at run time" is written once, beside the rules: `AnyLine` and
/// `with_game!` in `games/any.rs`. No other file of the engine or the GUI holds a line of one game
/// as a variant of its own or dispatches on the game in a macro of its own.
#[test]
fn one_of_the_three_games_is_written_once() {
    let gui = src().join("../../gui/src");
    let mut bad = Vec::new();
    for file in rust_files(&src()).into_iter().chain(rust_files(&gui)) {
        // The one place, and this check, which names what it looks for.
        if file.ends_with("games/any.rs") || file.ends_with("layers.rs") {
            continue;
        }
        for (n, line) in code_lines(&file) {
            let own = [
                "(Line<Oska>)",
                "$crate::games::GameKind",
                "$crate::games::AnyLine",
            ];
            if own.iter().any(|p| line.contains(p)) {
                bad.push(format!("{}:{n}: {}", file.display(), line.trim()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "one of the three games, written outside games/any.rs:\n{}",
        bad.join("\n")
    );
}

/// For each file of the folder `dir` (relative to `src`, `mod.rs` aside), the sibling files it
/// names (`super::SIBLING` or `crate::DIR::SIBLING`), each with the line that names it.
fn sibling_imports(dir: &str) -> Vec<(String, String, String)> {
    let stem = |p: &Path| p.file_stem().unwrap().to_string_lossy().into_owned();
    let files: Vec<PathBuf> = fs::read_dir(src().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs") && !p.ends_with("mod.rs"))
        .collect();
    let siblings: Vec<String> = files.iter().map(|p| stem(p)).collect();
    let mut out = Vec::new();
    for file in &files {
        for (n, line) in code_lines(file) {
            for prefix in ["super::".to_string(), format!("crate::{dir}::")] {
                for (at, _) in line.match_indices(&prefix) {
                    let rest = &line[at + prefix.len()..];
                    let end = rest
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(rest.len());
                    let name = &rest[..end];
                    if siblings.iter().any(|s| s == name) && name != stem(file) {
                        let place = format!("{}:{n}", file.display());
                        out.push((stem(file), name.to_string(), place));
                    }
                }
            }
        }
    }
    out
}

/// Fails when two files of the folder `dir` import each other: each folder's files form layers.
fn no_two_files_import_each_other(dir: &str) {
    let imports = sibling_imports(dir);
    let bad: Vec<String> = imports
        .iter()
        .filter(|(from, to, _)| imports.iter().any(|(f, t, _)| f == to && t == from))
        .map(|(from, to, place)| format!("{place}: {from} imports {to}"))
        .collect();
    assert!(
        bad.is_empty(),
        "files of {dir}/ import each other:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_match_runners_files_import_one_way() {
    no_two_files_import_each_other("arena");
    // The refereeing of a game and the schedule know nothing of the runner that drives them.
    let imports = sibling_imports("arena");
    // The scan finds imports at all: the refereeing of a game reads the schedule's types.
    assert!(
        imports
            .iter()
            .any(|(f, t, _)| f == "game" && t == "schedule")
    );
    let runner: Vec<&String> = imports
        .iter()
        .filter(|(_, to, _)| to == "runner")
        .map(|(_, _, place)| place)
        .collect();
    assert!(runner.is_empty(), "runner imported at {runner:?}");
}

#[test]
fn the_sessions_files_import_one_way() {
    no_two_files_import_each_other("session");
    // The scan finds imports at all: the state reads the options' defaults.
    let imports = sibling_imports("session");
    assert!(
        imports
            .iter()
            .any(|(f, t, _)| f == "state" && t == "options")
    );
}
