//! The README's command-line examples, run as written: every `$ engine ...` line of its `sh`
//! blocks is run through the real binary and its output compared with the lines the README shows
//! under it, so the README cannot drift from the code unnoticed.
//!
//! What is compared: the lines shown under a command, up to the next command, comment or blank
//! line, against its stdout (its stderr when it fails, as the error examples do). A shown line
//! `...` stands for any number of lines, and `...` inside a line for any text; a command shown
//! with no `...` line must print exactly the lines shown, one shown with no line at all is only
//! run. A few commands are not run, each for a
//! reason given in [`skipped`].
//!
//! Evidence: the real binary on the README's own text.

use std::path::{Path, PathBuf};
use std::process::Command;

use engine::arena::spec::split_words;

/// The repository root (README.md and the `engine/data/...` files its commands name).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the engine crate is in the workspace")
        .to_path_buf()
}

/// One `$ engine ...` example: its line number, its arguments and the output lines shown.
struct Example {
    line: usize,
    args: Vec<String>,
    shown: Vec<String>,
}

/// The command without its trailing comment (`   # 2 s`), which the README sets off by blanks.
fn without_comment(command: &str) -> &str {
    match command.find("  #") {
        Some(at) => command[..at].trim_end(),
        None => command,
    }
}

/// Every `$ engine ...` example of the README's `sh` blocks.
fn examples(readme: &str) -> Vec<Example> {
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
        if let Some(command) = line.strip_prefix("$ engine ") {
            let args = split_words(without_comment(command))
                .unwrap_or_else(|e| panic!("README.md:{}: {e}", i + 1));
            out.push(Example {
                line: i + 1,
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
fn skipped(args: &[String]) -> Option<&'static str> {
    let has = |word: &str| args.iter().any(|a| a == word);
    match args[0].as_str() {
        // They write the committed weights and need training sets made by scripts.
        "tune" | "tune-patterns" | "refine-patterns" | "refine-weights" => {
            Some("writes committed weights")
        }
        // A set of 3 000 solved positions takes minutes in a debug build.
        "positions" => Some("minutes in a debug build"),
        // The set the previous example makes.
        "blunders" if args[1] == "oska-4.txt" => Some("needs the set of `positions`"),
        // The 5-piece solve: minutes even in a release build.
        "solve" if has("--threads") => Some("minutes"),
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

#[test]
fn readme_command_line_examples_print_what_the_readme_shows() {
    let root = root();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let examples = examples(&readme);
    // The command-line section alone has more than 20; a parser that found none would pass.
    assert!(
        examples.len() >= 20,
        "only {} examples found",
        examples.len()
    );
    // A directory of its own: the tablebase examples write `tb` and read it back.
    let dir = std::env::temp_dir().join(format!("engine-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let mut run = 0;
    let mut wrong = Vec::new();
    for ex in &examples {
        if skipped(&ex.args).is_some() {
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
        let out = Command::new(env!("CARGO_BIN_EXE_engine"))
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
                "README.md:{}: `engine {}` shows\n{}\nbut prints ({})\n{}",
                ex.line,
                ex.args.join(" "),
                ex.shown.join("\n"),
                out.status,
                text
            ));
        }
        run += 1;
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(run >= 15, "only {run} examples run");
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
