//! Checks of the crate's layers, so that an upward import cannot come back unnoticed.
//!
//! From the bottom: [`crate::splitmix`] and [`crate::score`] import nothing from the crate;
//! [`crate::games`] (the rules) imports only itself and `splitmix`; [`crate::protocol`] imports
//! the rules and the score, never the search or anything above it; only the match runner's own
//! files (`arena/` and `bin/arena/`) import [`crate::arena`]; [`crate::process`] (running child
//! processes) imports nothing from the crate, and the client uses it, never the adapter. The
//! evaluators ([`crate::eval`]) sit beside the search and below it: the search imports them,
//! they never import the search, and their shared helpers (`eval/common.rs`) import no other
//! evaluation file. Within `adapter/`, `arena/` and `session/` the files import each other one
//! way only (no cycle). One of the three games chosen at run time is written once, in
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

/// The names a code line gives after `prefix` (`super::`, `crate::adapter::`): one identifier,
/// or each of a `{a, b}` group's first identifiers.
fn names_after(code: &str, prefix: &str) -> Vec<String> {
    let ident = |text: &str| {
        let end = text
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(text.len());
        text[..end].to_string()
    };
    let mut out = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        match rest.strip_prefix('{') {
            Some(group) => {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                out.extend(group.split(',').map(|g| ident(g.trim())));
            }
            None if rest.starts_with('*') => out.push("*".into()),
            None => out.push(ident(rest)),
        }
    }
    out
}

/// The imports between the files directly in the folder `folder` (relative to `src`; its
/// module is `module`, e.g. `crate::adapter`): for each file (by its name without `.rs`,
/// `mod.rs` left out), the names it gives after `super::` or `crate::MODULE::`, each with its
/// place.
fn folder_imports(folder: &str, module: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for entry in fs::read_dir(src().join(folder)).unwrap() {
        let file = entry.unwrap().path();
        let Some(stem) = file.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
            continue;
        };
        if file.extension().is_none_or(|e| e != "rs") || stem == "mod" {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            let own = format!("crate::{module}::");
            let named = names_after(code, "super::")
                .into_iter()
                .chain(names_after(code, &own));
            for name in named {
                out.push((stem.clone(), name, format!("{}:{}", file.display(), i + 1)));
            }
        }
    }
    out
}

/// Fails when the files directly in `folder` (module `module`) import each other in a cycle,
/// or (with `parent_free`) when one names something of the folder's parent module rather than a
/// file of the folder (`*`, a test module's own file, is allowed).
fn one_way(folder: &str, module: &str, parent_free: bool) {
    let imports = folder_imports(folder, module);
    let files: Vec<String> = fs::read_dir(src().join(folder))
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension().is_some_and(|x| x == "rs") && !p.ends_with("mod.rs"))
                .then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    if parent_free {
        let bad: Vec<String> = imports
            .iter()
            .filter(|(_, to, _)| to != "*" && !files.contains(to))
            .map(|(_, to, place)| format!("{place}: {to}"))
            .collect();
        assert!(
            bad.is_empty(),
            "{folder}'s files may import only each other, but name:\n{}",
            bad.join("\n")
        );
    }
    let edges: Vec<(&str, &str)> = imports
        .iter()
        .filter(|(from, to, _)| from != to && files.contains(to))
        .map(|(from, to, _)| (from.as_str(), to.as_str()))
        .collect();
    // Depth-first from each file: reaching it again is a cycle.
    for start in &files {
        let mut stack: Vec<Vec<&str>> = vec![vec![start.as_str()]];
        while let Some(path) = stack.pop() {
            let last = *path.last().unwrap();
            for &(from, to) in &edges {
                if from != last {
                    continue;
                }
                assert!(
                    to != start,
                    "{folder}: a cycle of imports: {} -> {to}",
                    path.join(" -> ")
                );
                if !path.contains(&to) {
                    let mut longer = path.clone();
                    longer.push(to);
                    stack.push(longer);
                }
            }
        }
    }
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

#[test]
fn the_process_module_imports_nothing_from_the_crate() {
    only_imports("process", &["process"]);
}

#[test]
fn the_client_does_not_import_the_adapter() {
    let bad: Vec<String> = named_modules("client")
        .into_iter()
        .filter(|(module, _)| module == "adapter")
        .map(|(_, place)| place)
        .collect();
    assert!(
        bad.is_empty(),
        "the client names the adapter:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_adapter_files_import_each_other_one_way() {
    one_way("adapter", "adapter", true);
}

#[test]
fn imports_are_read_from_groups() {
    let names = names_after("use super::{fault::Fault, limits};", "super::");
    assert_eq!(names, ["fault", "limits"]);
    assert_eq!(names_after("use super::*;", "super::"), ["*"]);
}

#[test]
fn the_evaluators_do_not_import_the_search() {
    only_imports("eval", &["eval", "games", "splitmix"]);
}

#[test]
fn the_evaluator_files_import_each_other_one_way_and_the_helpers_nothing() {
    one_way("eval", "eval", false);
    let bad: Vec<String> = folder_imports("eval", "eval")
        .into_iter()
        .filter(|(from, to, _)| from == "common" && to != "*")
        .map(|(_, to, place)| format!("{place}: {to}"))
        .collect();
    assert!(
        bad.is_empty(),
        "eval/common.rs may import no other evaluation file, but names:\n{}",
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

#[test]
fn the_arena_files_import_each_other_one_way() {
    one_way("arena", "arena", false);
    // The scan finds imports at all: the refereeing of a game reads the schedule's types.
    let imports = folder_imports("arena", "arena");
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
fn the_session_files_import_each_other_one_way() {
    one_way("session", "session", false);
    // The scan finds imports at all: the state reads the options' defaults.
    let imports = folder_imports("session", "session");
    assert!(
        imports
            .iter()
            .any(|(f, t, _)| f == "state" && t == "options")
    );
}
