//! Checks of the toolkit's layers, so that an upward import cannot come back unnoticed.
//!
//! Between crates (read from `cargo tree`): `boardgames-core` (rules, evaluation, search, tables,
//! protocol messages) depends on no other crate of the workspace and on no async runtime, command
//! line, process or error-reporting crate; `boardgames-tools` (client, process, adapter, arena,
//! conformance, tuning) depends on the core only; the binaries (`engine`) and the GUI sit on
//! top, and the Python extension depends on the core only.
//!
//! Within the core, from the bottom: `splitmix` and `score` import nothing; `games` (the rules)
//! imports only itself and `splitmix`; `protocol` imports the rules and the score, never the
//! search; the evaluators sit below the search and never import it, and their shared helpers
//! (`eval/common.rs`) import no other evaluation file; the certificates (`certificate/`, their
//! checker) use the rules, the score and the tables only, never the search or `exact`. Within the tools: only the match runner's
//! own files (`arena/` and `bin/arena/`) import the arena; `process` imports nothing from the
//! tools and the client uses it, never the adapter; within `adapter/`, `arena/` and `session/` the
//! files import each other one way only (no cycle). One of the three games chosen at run time is
//! written once, in `games/any.rs`. The checks read the source files and look at their code
//! lines (comments are skipped), as a reader would.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The `engine` folder (the binaries' package, with the core and the tools inside it).
fn engine_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `src` folders of the core, the tools and the binaries, lowest first.
fn all_srcs() -> [PathBuf; 3] {
    let e = engine_dir();
    [e.join("core/src"), e.join("tools/src"), e.join("src")]
}

/// The file or folder `path` in the first `src` folder that has it (`games` is the core's,
/// `arena` the tools', `bin` the binaries').
fn src(path: &str) -> PathBuf {
    all_srcs()
        .into_iter()
        .map(|s| s.join(path))
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("no {path} in any src folder"))
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

/// The toolkit's modules that the code lines of the files under `dir` name as `crate::MODULE`,
/// `boardgames_core::MODULE` or `boardgames_tools::MODULE`, each with the file and line.
fn modules_named_in(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for file in rust_files(dir) {
        let text = fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for prefix in ["crate::", "boardgames_core::", "boardgames_tools::"] {
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

/// The toolkit's modules that the files at `path` (see [`src`]) name.
fn named_modules(path: &str) -> Vec<(String, String)> {
    modules_named_in(&src(path))
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
    for entry in fs::read_dir(src(folder)).unwrap() {
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
    let files: Vec<String> = fs::read_dir(src(folder))
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
    let bad: Vec<String> = all_srcs()
        .iter()
        .flat_map(|dir| modules_named_in(dir))
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
fn the_process_module_imports_nothing_from_the_tools() {
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
fn the_certificate_checker_uses_the_rules_and_the_tables_only() {
    // Its unit tests (`tests.rs`) make certificates with the search to check: not the checker.
    let dir = src("certificate");
    let bad: Vec<String> = rust_files(&dir)
        .into_iter()
        .filter(|f| f.file_name().is_some_and(|n| n != "tests.rs"))
        .flat_map(|f| modules_named_in(&f))
        .filter(|(module, _)| {
            ![
                "certificate",
                "games",
                "score",
                "tablebase",
                "with_table_game",
            ]
            .contains(&module.as_str())
        })
        .map(|(module, place)| format!("{place}: {module}"))
        .collect();
    assert!(
        bad.is_empty(),
        "the certificates may use the rules and the tables only, but name:\n{}",
        bad.join("\n")
    );
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
    let gui = engine_dir().join("../gui/src");
    let mut bad = Vec::new();
    let files = all_srcs()
        .into_iter()
        .flat_map(|dir| rust_files(&dir))
        .chain(rust_files(&gui));
    for file in files {
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

/// The packages `cargo tree` lists for `args` (one per line, no duplicates), by name.
fn cargo_tree(args: &[&str]) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "--prefix", "none", "--no-dedupe", "-e", "normal"])
        .args(args)
        .current_dir(engine_dir())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The crates the core must never pull in: an async runtime, command-line and progress crates,
/// error reporting for binaries, and raw libc.
const NOT_IN_THE_CORE: [&str; 5] = ["tokio", "clap", "anyhow", "indicatif", "libc"];

#[test]
fn the_core_pulls_in_no_runtime_cli_or_process_crate() {
    let tree = cargo_tree(&["-p", "boardgames-core"]);
    // The listing is real: the core's own error crate is in it.
    assert!(tree.iter().any(|n| n == "thiserror"), "{tree:?}");
    let bad: Vec<&String> = tree
        .iter()
        .filter(|n| NOT_IN_THE_CORE.contains(&n.as_str()))
        .collect();
    assert!(bad.is_empty(), "boardgames-core depends on {bad:?}");
}

/// The workspace's crates, lowest first; each may depend only on crates before it.
const LAYERS: [&str; 4] = ["boardgames-core", "boardgames-tools", "engine", "gui"];

#[test]
fn the_crate_graph_has_no_upward_edge() {
    for (i, krate) in LAYERS.iter().enumerate() {
        let direct = cargo_tree(&["-p", krate, "--depth", "1"]);
        for (j, other) in LAYERS.iter().enumerate() {
            if j >= i {
                assert!(
                    j == i || !direct.contains(&other.to_string()),
                    "{krate} depends on {other}, a layer above it"
                );
            }
        }
        // The binaries and the GUI stand on the tools, the tools on the core.
        if i > 0 {
            assert!(
                direct.iter().any(|n| n == LAYERS[0]),
                "{krate} does not use the core: {direct:?}"
            );
        }
    }
}

#[test]
fn the_python_extension_depends_on_the_core_only() {
    let manifest = engine_dir().join("../python/Cargo.toml");
    let manifest = manifest.to_str().unwrap();
    let tree = cargo_tree(&["--manifest-path", manifest]);
    assert!(tree.iter().any(|n| n == "boardgames-core"), "{tree:?}");
    let bad: Vec<&String> = tree
        .iter()
        .filter(|n| *n == "boardgames-tools" || *n == "engine" || *n == "tokio")
        .collect();
    assert!(bad.is_empty(), "the Python extension depends on {bad:?}");
}
