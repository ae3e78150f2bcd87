//! The documentation held to the repository. The rules page, `docs/rules.md`: every test it
//! names exists where it says (a `#[test]` function of that name in that file, inside the named
//! module), and every `$ engine ...` example prints what the page shows under it. Every Markdown
//! file of the repository (README.md, protocol.md, CHANGELOG.md, `docs/`, `tests/README.md`,
//! ...): every relative link resolves to a file or folder inside the repository (and a
//! `#anchor` to a heading of it). Every Markdown file, source, script and manifest: no path that
//! leads out of the repository (as a link to a sibling checkout's `shared/` folder once did).
//!
//! What is compared for an example: the lines shown under the command, up to the next command or
//! the end of the block, against the command's stdout (its stderr when it fails, as the examples
//! of finished games and refused boards do), as a multiset: the rules fix which moves exist, not
//! the order in which the engine lists them.
//!
//! Evidence: the checks run on the page as committed and on the real binary; a last test feeds
//! them a wrong test name, a module that does not hold the test, a helper that is no test, a
//! name outside a code span, a link out of the repository, a missing anchor and a path out of
//! the repository in a source, and requires each to be reported.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use boardgames_tools::arena::spec::split_words;

/// The page, relative to the repository root.
const PAGE: &str = "docs/rules.md";

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the engine crate is in the workspace")
        .to_path_buf()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines of a Markdown text outside fenced code blocks, with their numbers (from 1).
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// Splits a line into its code spans (the text between single backticks) and the rest.
fn code_spans(line: &str) -> (Vec<&str>, String) {
    let mut spans = Vec::new();
    let mut rest = String::new();
    for (i, part) in line.split('`').enumerate() {
        if i % 2 == 1 {
            spans.push(part);
        } else {
            rest.push_str(part);
            rest.push(' ');
        }
    }
    (spans, rest)
}

/// A test named by the page: `FILE.rs::NAME` or `FILE.rs::MODULE::NAME`.
#[derive(Debug, PartialEq)]
struct TestRef {
    line: usize,
    file: String,
    module: Option<String>,
    name: String,
}

/// Every test the text names, and the problems of names it spells wrongly (a name outside a
/// code span, a path of more than one module).
fn test_refs(text: &str) -> (Vec<TestRef>, Vec<String>) {
    let mut refs = Vec::new();
    let mut problems = Vec::new();
    for (line, content) in prose_lines(text) {
        let (spans, rest) = code_spans(content);
        if rest.contains(".rs::") {
            problems.push(format!(
                "line {line}: a test named outside `backticks` is not checked: {content}"
            ));
        }
        for span in spans {
            let Some((file, path)) = span.split_once(".rs::") else {
                continue;
            };
            let parts: Vec<&str> = path.split("::").collect();
            let (module, name) = match parts.as_slice() {
                [name] => (None, *name),
                [module, name] => (Some(module.to_string()), *name),
                _ => {
                    problems.push(format!(
                        "line {line}: `{span}` is not FILE.rs[::MODULE]::TEST"
                    ));
                    continue;
                }
            };
            refs.push(TestRef {
                line,
                file: format!("{file}.rs"),
                module,
                name: name.to_string(),
            });
        }
    }
    (refs, problems)
}

/// The text of `mod NAME { ... }` in `source`, braces matched.
fn module_body<'a>(source: &'a str, module: &str) -> Option<&'a str> {
    let start = source.find(&format!("mod {module} {{"))?;
    let open = start + source[start..].find('{')?;
    let mut depth = 0usize;
    for (i, c) in source[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&source[open..open + i + 1]);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether `scope` declares a function `name` marked `#[test]` (the attribute among the
/// attribute, comment and blank lines right above it).
fn has_test(scope: &str, name: &str) -> bool {
    let lines: Vec<&str> = scope.lines().collect();
    lines.iter().enumerate().any(|(i, line)| {
        let code = line.trim_start();
        let declares = [format!("fn {name}("), format!("fn {name}<")]
            .iter()
            .any(|d| code.starts_with(d.as_str()) || code.contains(&format!(" {d}")));
        declares
            && lines[..i]
                .iter()
                .rev()
                .map(|l| l.trim())
                .take_while(|l| l.starts_with("#[") || l.starts_with("//") || l.is_empty())
                .any(|l| l == "#[test]")
    })
}

/// Why a named test is not found, or `None` when it is there.
fn missing(root: &Path, r: &TestRef) -> Option<String> {
    let at = format!("line {}: `{}`", r.line, r.file);
    let homes = [
        "engine/tests/",
        "engine/src/",
        "engine/core/src/",
        "engine/tools/src/",
    ];
    if !homes.iter().any(|home| r.file.starts_with(home)) {
        return Some(format!("{at}: tests live in {}", homes.join(", ")));
    }
    let Ok(source) = std::fs::read_to_string(root.join(&r.file)) else {
        return Some(format!("{at}: no such file"));
    };
    let scope = match &r.module {
        None => source.as_str(),
        Some(m) => match module_body(&source, m) {
            Some(body) => body,
            None => return Some(format!("{at}: no module `{m}` in it")),
        },
    };
    (!has_test(scope, &r.name)).then(|| {
        let place = r
            .module
            .as_ref()
            .map_or(String::new(), |m| format!("::{m}"));
        format!("{at}{place}: no #[test] fn {}", r.name)
    })
}

/// The GitHub anchor of a heading: lower case, blanks as `-`, other punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of every heading of a Markdown text.
fn anchors(text: &str) -> BTreeSet<String> {
    prose_lines(text)
        .into_iter()
        .filter_map(|(_, l)| l.strip_prefix('#'))
        .map(|l| anchor(l.trim_start_matches('#')))
        .collect()
}

/// The targets of the Markdown links `[text](target)` of a text, with their line numbers.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (line, content) in prose_lines(text) {
        let (_, rest) = code_spans(content);
        let mut s = rest.as_str();
        while let Some(at) = s.find("](") {
            let after = &s[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            out.push((line, after[..end].to_string()));
            s = &after[end..];
        }
    }
    out
}

/// The problems of the relative links of `text`, a page at `page` (relative to `root`).
fn link_problems(root: &Path, page: &str, text: &str) -> (usize, Vec<String>) {
    let root = root.canonicalize().expect("the repository root");
    let dir = root.join(page).parent().expect("a folder").to_path_buf();
    let mut checked = 0;
    let mut problems = Vec::new();
    for (line, target) in links(text) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        checked += 1;
        let (path, fragment) = target.split_once('#').unwrap_or((&target, ""));
        let file = if path.is_empty() {
            root.join(page)
        } else {
            dir.join(path)
        };
        let Ok(file) = file.canonicalize() else {
            problems.push(format!("line {line}: {target}: no such file"));
            continue;
        };
        if !file.starts_with(&root) {
            problems.push(format!("line {line}: {target}: outside the repository"));
            continue;
        }
        if !fragment.is_empty() && !anchors(&read(&file)).contains(fragment) {
            problems.push(format!("line {line}: {target}: no heading #{fragment}"));
        }
    }
    (checked, problems)
}

#[test]
fn every_test_the_rules_page_names_exists() {
    let root = root();
    let text = read(&root.join(PAGE));
    let (refs, mut problems) = test_refs(&text);
    // The page names a test for every rule; a parser that found few would pass unnoticed.
    assert!(refs.len() >= 60, "only {} tests named", refs.len());
    problems.extend(refs.iter().filter_map(|r| missing(&root, r)));
    assert!(problems.is_empty(), "{PAGE}:\n{}", problems.join("\n"));
}

/// Every file of the repository whose name ends with one of `suffixes` (or, for an empty
/// suffix, that has no extension), relative to the root, sorted; build outputs (`target/`) and
/// hidden folders but `.ci/` are left out.
/// The endings of the files the checks of every file read (`""`: files without one).
const SOURCES: &[&str] = &[".md", ".rs", ".sh", ".py", ".toml", ".hs", ".lisp", ""];

fn files(root: &Path, suffixes: &[&str]) -> Vec<String> {
    fn walk(dir: &Path, rel: &str, suffixes: &[&str], out: &mut Vec<String>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.expect("a folder entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            let kind = entry.file_type().expect("a file type");
            if kind.is_dir() {
                let hidden = name.starts_with('.') && name != ".ci";
                if !hidden && name != "target" {
                    walk(&entry.path(), &rel, suffixes, out);
                }
            } else if kind.is_file()
                && suffixes.iter().any(|s| {
                    if s.is_empty() {
                        !name.contains('.')
                    } else {
                        name.ends_with(s)
                    }
                })
            {
                out.push(rel);
            }
        }
    }
    let mut out = Vec::new();
    walk(root, "", suffixes, &mut out);
    out.sort();
    out
}

#[test]
fn every_relative_link_of_every_markdown_file_resolves() {
    let root = root();
    let pages = files(&root, &[".md"]);
    for page in ["README.md", "protocol.md", PAGE, "tests/README.md"] {
        assert!(pages.iter().any(|p| p == page), "{page} not in {pages:?}");
    }
    let mut checked = 0;
    let mut problems = Vec::new();
    for page in &pages {
        let (n, found) = link_problems(&root, page, &read(&root.join(page)));
        checked += n;
        problems.extend(found.into_iter().map(|p| format!("{page}: {p}")));
    }
    // README.md's table of pages alone has more than 20; a parser that found few would pass.
    assert!(checked >= 60, "only {checked} links found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The paths in `text`, a file at `file` (relative to `root`), that lead out of the repository:
/// any word that goes up a folder (`../`) and, read from the file's folder, ends above the root,
/// and any mention of a sibling checkout's `shared/` folder.
fn outside_paths(file: &str, text: &str) -> Vec<String> {
    let sibling = concat!("..", "/shared/");
    let depth = file.matches('/').count();
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let words = line
            .split(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '/' | '_' | '-' | '~')));
        for word in words.filter(|w| w.contains("../")) {
            // Lexically: each `..` climbs one folder from the file's own.
            let mut level = depth as isize;
            for part in word.split('/') {
                match part {
                    ".." => level -= 1,
                    "" | "." => {}
                    _ => level += 1,
                }
                if level < 0 {
                    break;
                }
            }
            if level < 0 || word.contains(sibling) {
                problems.push(format!(
                    "{file}:{}: `{word}` is outside the repository",
                    i + 1
                ));
            }
        }
    }
    problems
}

/// The places in `text`, a file at `file`, that cite a section of the README by its title
/// (the file's name, a comma and the title in double quotes): the README is an entrance that links to pages
/// now, and a title cited in a comment or script goes stale unnoticed.
fn readme_titles(file: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for (at, _) in line.match_indices("README") {
            let rest = line[at + "README".len()..].trim_start_matches(".md");
            if rest.starts_with(", \"") || rest.starts_with(" \"") {
                problems.push(format!(
                    "{file}:{}: cites a README section: {}",
                    i + 1,
                    line.trim()
                ));
            }
        }
    }
    problems
}

/// What `check` finds in the text of each of `sources` (paths below `root`); a file that is
/// not text is passed over.
fn problems_in(
    root: &Path,
    sources: &[String],
    check: fn(&str, &str) -> Vec<String>,
) -> Vec<String> {
    sources
        .iter()
        .filter_map(|f| std::fs::read_to_string(root.join(f)).ok().map(|t| (f, t)))
        .flat_map(|(f, t)| check(f, &t))
        .collect()
}

#[test]
fn no_file_cites_a_readme_section_title() {
    let root = root();
    let sources = files(&root, SOURCES);
    let problems = problems_in(&root, &sources, readme_titles);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_file_names_a_path_outside_the_repository() {
    let root = root();
    let sources = files(&root, SOURCES);
    assert!(sources.iter().any(|f| f == ".ci/run"), "{sources:?}");
    assert!(sources.len() >= 100, "only {} files", sources.len());
    let problems = problems_in(&root, &sources, outside_paths);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// One `$ engine ...` example: its line, its arguments and the lines shown under it.
struct Example {
    line: usize,
    args: Vec<String>,
    shown: Vec<String>,
}

/// Every `$ engine ...` example of the `sh` blocks of a text.
fn examples(text: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_sh = false;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_sh = !in_sh && line == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ engine ") {
            let args = split_words(command).unwrap_or_else(|e| panic!("{PAGE}:{}: {e}", i + 1));
            out.push(Example {
                line: i + 1,
                args,
                shown: Vec::new(),
            });
        } else if let Some(example) = out.last_mut() {
            example.shown.push(line.to_string());
        } else {
            panic!("{PAGE}:{}: output before any command", i + 1);
        }
    }
    out
}

#[test]
fn rules_page_examples_print_what_the_page_shows() {
    let root = root();
    let text = read(&root.join(PAGE));
    let examples = examples(&text);
    assert!(
        examples.len() >= 20,
        "only {} examples found",
        examples.len()
    );
    let mut wrong = Vec::new();
    for ex in &examples {
        assert!(!ex.shown.is_empty(), "{PAGE}:{}: shows no output", ex.line);
        let out = Command::new(env!("CARGO_BIN_EXE_engine"))
            .args(&ex.args)
            .current_dir(&root)
            .output()
            .expect("the engine binary runs");
        let printed = if out.status.success() {
            &out.stdout
        } else {
            &out.stderr
        };
        let printed = String::from_utf8_lossy(printed);
        let mut got: Vec<&str> = printed.lines().collect();
        let mut shown: Vec<&str> = ex.shown.iter().map(String::as_str).collect();
        got.sort_unstable();
        shown.sort_unstable();
        if got != shown {
            wrong.push(format!(
                "{PAGE}:{}: `engine {}` shows\n{}\nbut prints ({})\n{printed}",
                ex.line,
                ex.args.join(" "),
                ex.shown.join("\n"),
                out.status
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_checks_report_what_is_wrong() {
    let root = root();
    // A name that exists, one that does not, one in a module that lacks it, a helper that is no
    // test, and a unit test in its module.
    let text = "\
- `engine/tests/rules/rules.rs::oska_one_capture_per_turn`
- `engine/tests/rules/rules.rs::no_such_test`
- `engine/core/src/games/oska.rs::tests::no_such_test`
- `engine/tests/rules/rules.rs::play`
- `engine/core/src/games/oska.rs::tests::row_lengths_follow_the_rules`
- `engine/core/src/games/oska.rs::nomodule::row_lengths_follow_the_rules`
- named without backticks: engine/tests/rules/rules.rs::oska_one_capture_per_turn
```sh
$ engine perft oska wwww/---/--/---/bbbb w 1 # `engine/tests/ignored.rs::in_a_block`
```
";
    let (refs, problems) = test_refs(text);
    assert_eq!(refs.len(), 6, "{refs:?}");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("line 7:"), "{problems:?}");
    assert_eq!(
        refs[4],
        TestRef {
            line: 5,
            file: "engine/core/src/games/oska.rs".into(),
            module: Some("tests".into()),
            name: "row_lengths_follow_the_rules".into(),
        }
    );
    let found: Vec<bool> = refs.iter().map(|r| missing(&root, r).is_none()).collect();
    assert_eq!(found, [true, false, false, false, true, false]);
    assert!(
        missing(&root, &refs[5])
            .unwrap()
            .contains("no module `nomodule`")
    );

    // Links: a good one with its anchor, a missing anchor, a missing file, and one that leaves
    // the repository; web addresses and links inside code are not checked.
    let text = "\
See [protocol](../protocol.md#decisions), [no heading](../protocol.md#no-such-heading),
[no file](no-such-file.md) and [out](../..), the folder above the repository.
Not checked: [web](https://example.org/) and `[code](nowhere.md)`.
";
    let (checked, problems) = link_problems(&root, PAGE, text);
    assert_eq!(checked, 4);
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(
        problems[0].contains("no heading #no-such-heading"),
        "{problems:?}"
    );
    assert!(problems[1].contains("no such file"), "{problems:?}");
    assert!(
        problems[2].contains("outside the repository"),
        "{problems:?}"
    );
    assert_eq!(anchor("The board-call adapter"), "the-board-call-adapter");

    // README section titles, in the two ways comments cited them; a mention of the file is none.
    let cited = concat!("/// (README", r#", "Strength at equal depth")"#);
    assert_eq!(readme_titles("x.rs", cited).len(), 1);
    let cited = concat!("# See README", r#".md, "The match runner"."#);
    assert_eq!(readme_titles("x.sh", cited).len(), 1);
    assert!(readme_titles("x.sh", "echo \"== tests (README: cargo test --workspace)\"").is_empty());

    // Paths: out of the repository from a top-level file, from a page one folder down, and a
    // sibling checkout's folder; paths that stay inside are not reported.
    let sibling = concat!("[rules](..", "/shared/rules.md)");
    assert_eq!(outside_paths("README.md", sibling).len(), 1);
    assert_eq!(outside_paths("docs/rules.md", sibling).len(), 1);
    assert_eq!(
        outside_paths("docs/a/b.md", concat!("see ../../", "../x")).len(),
        1
    );
    assert!(outside_paths("docs/a/b.md", "see ../../protocol.md and ../rules.md").is_empty());
    assert!(outside_paths("engine/tests/x.rs", r#"include_str!("../../README.md")"#).is_empty());
    assert_eq!(
        anchor("Seed functions: `FILE.py:FUNCTION`"),
        "seed-functions-filepyfunction"
    );
}
