//! The command-line examples of README.md and of the user pages of `docs/`, run as written:
//! every `$ engine ...` line of their `sh` blocks (and `$ engine-tune ...`, the developer tools')
//! is run through the real binary and its output
//! compared with the lines the page shows under it, so no page can drift from the code unnoticed.
//! Not replayed here: `docs/rules.md`, whose examples `tests/docs.rs` replays as multisets, and
//! `docs/research/`, whose dated notes record how past figures were made.
//!
//! What is compared: the lines shown under a command, up to the next command, comment or blank
//! line, against its stdout (its stderr when it fails, as the error examples do). A shown line
//! `...` stands for any number of lines, and `...` inside a line for any text; a command shown
//! with no `...` line must print exactly the lines shown, one shown with no line at all is only
//! run. A few commands are not run, each for a
//! reason given in [`skipped`].
//!
//! Evidence: the real binary on the pages' own text.

use std::path::{Path, PathBuf};
use std::process::Command;

use boardgames_tools::arena::spec::split_words;

/// The repository root (README.md, `docs/` and the `engine/data/...` files their commands name).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the engine crate is in the workspace")
        .to_path_buf()
}

/// One `$ engine ...` example: its line number, its binary, its arguments and the output lines
/// shown.
struct Example {
    line: usize,
    binary: Binary,
    args: Vec<String>,
    shown: Vec<String>,
}

/// The binaries the examples run.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Binary {
    Engine,
    Tune,
}

impl Binary {
    /// The binary's name, as the pages write it.
    fn name(self) -> &'static str {
        match self {
            Binary::Engine => "engine",
            Binary::Tune => "engine-tune",
        }
    }

    /// The path of the binary built for the tests.
    fn path(self) -> &'static str {
        match self {
            Binary::Engine => env!("CARGO_BIN_EXE_engine"),
            Binary::Tune => env!("CARGO_BIN_EXE_engine-tune"),
        }
    }
}

/// The command without its trailing comment (`   # 2 s`), which the pages set off by blanks.
fn without_comment(command: &str) -> &str {
    match command.find("  #") {
        Some(at) => command[..at].trim_end(),
        None => command,
    }
}

/// Every `$ engine ...` example of the `sh` blocks of `page`, whose text is `readme`.
fn examples(page: &str, readme: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_sh = false;
    let mut collecting = false;
    for (i, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            in_sh = !in_sh && line == "```sh";
            collecting = false;
            continue;
        }
        if !in_sh {
            continue;
        }
        let command = [Binary::Engine, Binary::Tune]
            .into_iter()
            .find_map(|binary| {
                line.strip_prefix(&format!("$ {} ", binary.name()))
                    .map(|command| (binary, command))
            });
        if let Some((binary, command)) = command {
            let args = split_words(without_comment(command))
                .unwrap_or_else(|e| panic!("{page}:{}: {e}", i + 1));
            out.push(Example {
                line: i + 1,
                binary,
                args,
                shown: Vec::new(),
            });
            collecting = true;
        } else if line.is_empty() || line.starts_with('#') || line.starts_with('$') {
            collecting = false;
        } else if collecting {
            out.last_mut()
                .expect("collecting follows a command")
                .shown
                .push(line.to_string());
        }
    }
    out
}

/// Why an example is not run, or `None` to run it.
fn skipped(ex: &Example) -> Option<&'static str> {
    let args = &ex.args;
    let has = |word: &str| args.iter().any(|a| a == word);
    match (ex.binary, args[0].as_str()) {
        // They write the committed weights and need training sets made by scripts.
        (Binary::Tune, "tune" | "tune-patterns" | "refine-patterns" | "refine-weights") => {
            Some("writes committed weights")
        }
        // A set of 3 000 solved positions takes minutes in a debug build.
        (Binary::Tune, "positions") => Some("minutes in a debug build"),
        // The set the previous example makes.
        (Binary::Tune, "blunders") if args[1] == "oska-4.txt" => {
            Some("needs the set of `positions`")
        }
        // The 5-piece solve: minutes even in a release build.
        (Binary::Engine, "solve") if has("--threads") => Some("minutes"),
        _ => None,
    }
}

/// Whether `line` matches `shown`, where `...` in `shown` stands for any text.
fn line_matches(shown: &str, line: &str) -> bool {
    let parts: Vec<&str> = shown.split("...").collect();
    if parts.len() == 1 {
        return shown == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || !line[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether the output `lines` are what `shown` shows: in order, `...` lines skipping any number.
fn output_matches(shown: &[String], lines: &[&str]) -> bool {
    match shown.split_first() {
        None => lines.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=lines.len()).any(|skip| output_matches(rest, &lines[skip..]))
        }
        Some((first, rest)) => {
            !lines.is_empty() && line_matches(first, lines[0]) && output_matches(rest, &lines[1..])
        }
    }
}

/// The pages replayed here, relative to the root: README.md and every Markdown file under
/// `docs/` but `docs/rules.md` and `docs/research/`, in a fixed order.
fn pages(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.expect("a folder entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = format!("{rel}/{name}");
            if entry.path().is_dir() {
                if rel != "docs/research" {
                    walk(&entry.path(), &rel, out);
                }
            } else if name.ends_with(".md") && rel != "docs/rules.md" {
                out.push(rel);
            }
        }
    }
    let mut docs = Vec::new();
    walk(&root.join("docs"), "docs", &mut docs);
    docs.sort();
    let mut pages = vec!["README.md".to_string()];
    pages.extend(docs);
    pages
}

#[test]
fn the_replayed_pages_are_the_user_pages() {
    let pages = pages(&root());
    for page in ["README.md", "docs/cli.md", "docs/tablebases.md"] {
        assert!(pages.iter().any(|p| p == page), "{page} not in {pages:?}");
    }
    assert!(
        !pages
            .iter()
            .any(|p| p == "docs/rules.md" || p.starts_with("docs/research/")),
        "{pages:?}"
    );
}

#[test]
fn command_line_examples_print_what_their_pages_show() {
    let root = root();
    let mut examples = Vec::new();
    for page in pages(&root) {
        let text =
            std::fs::read_to_string(root.join(&page)).unwrap_or_else(|e| panic!("{page}: {e}"));
        examples.extend(examples_of(&page, &text));
    }
    // docs/cli.md alone has more than 20; a parser that found none would pass.
    assert!(
        examples.len() >= 25,
        "only {} examples found",
        examples.len()
    );
    // The developer tools' pages show examples that run too (`engine-tune blunders`).
    assert!(
        examples
            .iter()
            .any(|(_, ex)| ex.binary == Binary::Tune && skipped(ex).is_none()),
        "no engine-tune example is run"
    );
    let mut run = 0;
    let mut wrong = Vec::new();
    let mut dirs = Vec::new();
    for (page, ex) in &examples {
        // A directory of its own for each page: the tablebase examples write `tb` and read it
        // back.
        let dir = std::env::temp_dir().join(format!(
            "engine-readme-{}-{}",
            std::process::id(),
            page.replace('/', "-")
        ));
        if !dirs.contains(&dir) {
            std::fs::create_dir_all(&dir).expect("a temporary directory");
            dirs.push(dir.clone());
        }
        if skipped(ex).is_some() {
            continue;
        }
        // Paths into the repository are given from its root.
        let args: Vec<String> = ex
            .args
            .iter()
            .map(|a| {
                if a.starts_with("engine/") {
                    root.join(a).display().to_string()
                } else {
                    a.clone()
                }
            })
            .collect();
        let out = Command::new(ex.binary.path())
            .args(&args)
            .current_dir(&dir)
            .output()
            .expect("the engine binary runs");
        let text = if out.status.success() {
            String::from_utf8_lossy(&out.stdout).into_owned()
        } else {
            String::from_utf8_lossy(&out.stderr).into_owned()
        };
        // Paths in the output read as the README wrote them.
        let text = text.replace(&format!("{}/", root.display()), "");
        // A blank line ends a shown block, so blank lines at the end of the output are not shown.
        let lines: Vec<&str> = text.trim_end().lines().collect();
        if !ex.shown.is_empty() && !output_matches(&ex.shown, &lines) {
            wrong.push(format!(
                "{page}:{}: `{} {}` shows\n{}\nbut prints ({})\n{}",
                ex.line,
                ex.binary.name(),
                ex.args.join(" "),
                ex.shown.join("\n"),
                out.status,
                text
            ));
        }
        run += 1;
    }
    for dir in dirs {
        std::fs::remove_dir_all(&dir).ok();
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(run >= 20, "only {run} examples run");
}

/// The examples of one page, each with the page's name.
fn examples_of(page: &str, text: &str) -> Vec<(String, Example)> {
    examples(page, text)
        .into_iter()
        .map(|ex| (page.to_string(), ex))
        .collect()
}

#[test]
fn the_matcher_skips_and_matches_as_documented() {
    let shown = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(output_matches(
        &shown(&["a", "...", "z"]),
        &["a", "b", "c", "z"]
    ));
    assert!(!output_matches(&shown(&["a", "z"]), &["a", "b", "z"]));
    assert!(!output_matches(&shown(&["a"]), &["a", "b"]));
    assert!(output_matches(&shown(&["..."]), &[]));
    assert!(line_matches("nodes 5 nps ...", "nodes 5 nps 1234"));
    assert!(!line_matches("nodes 5 nps ...", "nodes 6 nps 1234"));
    assert!(line_matches(
        "['a',...,'z'] w ... e1e2=l6",
        "['a','m','z'] w x y e1e2=l6"
    ));
    assert!(!line_matches(
        "['a',...,'z'] w ... e1e2=l6",
        "['a','m','z'] w x y e1e2=l5"
    ));
    assert_eq!(without_comment("solve x   # 3.5 minutes"), "solve x");
}
