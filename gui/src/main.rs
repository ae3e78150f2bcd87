//! The `gui` program: reads its command line (see [`USAGE`]), then opens the window and runs
//! [`gui::GuiApp`]. `--help` prints the usage and exits without a display; an unknown flag is a
//! one-line error and exit status 2. The game, size and moves are checked by the app, which
//! reports anything unreadable in the window's status line.

use std::process::ExitCode;

use eframe::egui;

/// What `gui --help` prints: every flag the program takes.
const USAGE: &str = "\
Usage: gui [OPTIONS] [GAME SIZE [MOVE...]]

Plays Oska, Hexapawn and Capture the Flag against any engine that speaks the protocol
(protocol.md), human against human, or engine against engine.

Arguments:
  GAME SIZE [MOVE...]  start with this game (oska, hexapawn, ctf) and size, with these moves
                       played, instead of the last set-up's new game

Options:
  --engines            our engine plays both sides
  --analyse            turn analysis on
  --lines N            the analysis shows N lines (1 to 5; MultiPV)
  --clock TC           play on clocks of TC (M:SS+INC or arena's tc= form, e.g. 5:00+3);
                       engines then play on the clock
  --tree DEPTH         open the search tree panel on a traced search of DEPTH plies
  --edit               open the position editor on the shown position
  --console            open the engine console panel
  --solve              open the solver panel, solving the shown position
  --manager            open the engine manager panel and read the first saved engine's options
  --review             review the game (after --open or the moves given): each move's value
                       before and after, exact from the tables where they cover it
  --tablebase          open the tablebase panel (tables in the set directory, else
                       $TABLEBASE_PATH, else ./tablebases)
  --open FILE          open a game record file (its first game, with its variations, paused)
  --size WxH           open the window at W by H points (at least 800x600), e.g. 1280x800
  --                   only arguments follow
  -h, --help           print this help and exit
";

/// The command line, read.
#[derive(Debug, Default, PartialEq)]
struct Args {
    engines: bool,
    analyse: bool,
    edit: bool,
    console: bool,
    solve: bool,
    /// `--tree DEPTH`.
    tree: Option<u32>,
    /// `--lines N`.
    lines: Option<u32>,
    /// `--clock TC`, checked.
    clock: Option<String>,
    manager: bool,
    tablebase: bool,
    review: bool,
    /// `--open FILE`.
    open: Option<String>,
    /// `--size WxH`.
    size: Option<[f32; 2]>,
    /// GAME SIZE MOVE..., checked by the app.
    rest: Vec<String>,
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
enum Command {
    Run(Args),
    Help,
}

/// Reads the command line (without the program name); the error is one line.
fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut out = Args::default();
    let mut args = args.into_iter();
    let mut options = true;
    while let Some(arg) = args.next() {
        if !options || !arg.starts_with('-') {
            out.rest.push(arg);
            continue;
        }
        match arg.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--" => options = false,
            "--engines" => out.engines = true,
            "--analyse" => out.analyse = true,
            "--edit" => out.edit = true,
            "--console" => out.console = true,
            "--solve" => out.solve = true,
            "--manager" => out.manager = true,
            "--tablebase" => out.tablebase = true,
            "--review" => out.review = true,
            "--lines" => {
                let n = args.next().ok_or("--lines needs a number N (1 to 5)")?;
                out.lines = Some(lines_of(&n)?);
            }
            "--open" => out.open = Some(args.next().ok_or("--open needs a FILE")?),
            "--size" => {
                let size = args.next().ok_or("--size needs WxH (such as 1280x800)")?;
                out.size = Some(size_of(&size)?);
            }
            "--clock" => {
                let tc = args
                    .next()
                    .ok_or("--clock needs a time control TC (such as 5:00+3)")?;
                gui::settings::time_control(&tc).map_err(|e| format!("--clock: {e}"))?;
                out.clock = Some(tc);
            }
            "--tree" => {
                let depth = args.next().ok_or("--tree needs a DEPTH (plies)")?;
                out.tree = Some(depth_of(&depth)?);
            }
            _ => {
                if let Some(depth) = arg.strip_prefix("--tree=") {
                    out.tree = Some(depth_of(depth)?);
                } else if let Some(file) = arg.strip_prefix("--open=") {
                    out.open = Some(file.to_string());
                } else {
                    return Err(format!("unknown option '{arg}' (gui --help lists them)"));
                }
            }
        }
    }
    Ok(Command::Run(out))
}

/// The window size of `--size WxH`, at least [`gui::app::MIN_WINDOW`].
fn size_of(text: &str) -> Result<[f32; 2], String> {
    let [min_w, min_h] = gui::app::MIN_WINDOW;
    let parsed = text
        .split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)));
    match parsed {
        Some((w, h)) if w as f32 >= min_w && h as f32 >= min_h => Ok([w as f32, h as f32]),
        Some(_) => Err(format!(
            "--size WxH: '{text}' is smaller than the least window, {min_w}x{min_h}"
        )),
        None => Err(format!(
            "--size WxH: '{text}' is not a width and a height such as 1280x800"
        )),
    }
}

/// The number of `--lines N`.
fn lines_of(text: &str) -> Result<u32, String> {
    match text.parse() {
        Ok(n) if (1..=gui::settings::MAX_LINES).contains(&n) => Ok(n),
        _ => Err(format!(
            "--lines N: '{text}' is not a number of lines from 1 to {}",
            gui::settings::MAX_LINES
        )),
    }
}

fn depth_of(text: &str) -> Result<u32, String> {
    text.parse()
        .map_err(|_| format!("--tree DEPTH: '{text}' is not a number of plies"))
}

fn main() -> ExitCode {
    match parse(std::env::args().skip(1)) {
        Ok(Command::Help) => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gui: {e}");
            ExitCode::from(2)
        }
        Ok(Command::Run(args)) => match run(args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("gui: {e}");
                ExitCode::FAILURE
            }
        },
    }
}

/// Opens the window.
fn run(args: Args) -> eframe::Result {
    // Engines may be board-call adapters: what a killed one leaves is removed when it exits.
    boardgames_tools::adapter::sandbox::clean_after_each_engine();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Oska, Hexapawn and Capture the Flag")
            .with_inner_size(args.size.unwrap_or([1100.0, 720.0]))
            .with_min_inner_size(gui::app::MIN_WINDOW),
        // A size asked for on the command line is not remembered over the user's own.
        persist_window: args.size.is_none(),
        ..Default::default()
    };
    eframe::run_native(
        "boardgames-gui",
        options,
        Box::new(move |cc| {
            let settings: gui::Settings = cc
                .storage
                .and_then(|s| eframe::get_value(s, gui::app::SETTINGS_KEY))
                .unwrap_or_default();
            let mut settings = settings;
            if args.engines {
                settings.ours_on_both_sides();
            }
            if let Some(n) = args.lines {
                settings.lines = n;
            }
            if let Some(tc) = &args.clock {
                settings.clock.clone_from(tc);
            }
            let mut app = gui::GuiApp::new(settings);
            if let Some(size) = args.size {
                // eframe restores the last run's window size whatever it is told: asked again.
                app.ask_window_size(size);
            }
            app.start_from_args(&args.rest);
            if let Some(file) = &args.open {
                app.file_chosen(gui::dialogs::Purpose::Open, std::path::Path::new(file));
            }
            if args.analyse {
                app.set_analysis(true);
            }
            if let Some(depth) = args.tree {
                app.tree_mut().depth = depth;
                app.run_tree_search();
            }
            if args.edit {
                app.open_editor();
            }
            if args.console {
                app.show_tool(gui::panels::dock::Tool::Console, true);
            }
            if args.solve {
                app.run_solve();
            }
            if args.manager {
                app.open_engine_manager(true);
            }
            if args.tablebase {
                app.set_tablebase(true);
            }
            if args.review {
                app.start_review();
            }
            Ok(Box::new(app))
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn flags_and_arguments_mix_in_any_order() {
        let got = parse(words(
            "--engines oska 4 --tree 3 d1c2 --solve --lines 3 --manager --tablebase --open a.games \
             --clock 1:00+1 --size 1280x800",
        ))
        .unwrap();
        let want = Args {
            engines: true,
            solve: true,
            tree: Some(3),
            lines: Some(3),
            manager: true,
            tablebase: true,
            open: Some("a.games".into()),
            clock: Some("1:00+1".into()),
            size: Some([1280.0, 800.0]),
            rest: words("oska 4 d1c2"),
            ..Args::default()
        };
        assert_eq!(got, Command::Run(want));
        let Command::Run(a) = parse(words("--tree=5 -- --edit")).unwrap() else {
            panic!("not a run")
        };
        assert_eq!((a.tree, a.edit, a.rest), (Some(5), false, words("--edit")));
    }

    #[test]
    fn help_wins_and_bad_flags_are_one_line_errors() {
        assert_eq!(parse(words("ctf 5 -h")), Ok(Command::Help));
        assert_eq!(parse(words("--help --bogus")), Ok(Command::Help));
        for (line, says) in [
            ("--bogus", "unknown option '--bogus'"),
            ("-x", "unknown option '-x'"),
            ("--tree", "--tree needs a DEPTH"),
            ("--tree deep", "'deep' is not a number"),
            ("--tree=-1", "'-1' is not a number"),
            ("--lines", "--lines needs a number"),
            ("--lines 6", "'6' is not a number of lines from 1 to 5"),
            ("--open", "--open needs a FILE"),
            ("--clock", "--clock needs a time control"),
            ("--clock 5:xx", "--clock: clock '5:xx'"),
            ("--clock 0+1", "more than 0 seconds"),
            ("--size", "--size needs WxH"),
            ("--size 640x480", "smaller than the least window, 800x600"),
            ("--size big", "'big' is not a width and a height"),
        ] {
            let e = parse(words(line)).unwrap_err();
            assert!(e.contains(says) && !e.contains('\n'), "{line}: {e}");
        }
    }

    #[test]
    fn usage_names_every_flag_the_parser_takes() {
        for flag in [
            "--engines",
            "--analyse",
            "--tree DEPTH",
            "--edit",
            "--console",
            "--solve",
            "--lines N",
            "--manager",
            "--tablebase",
            "--open FILE",
            "--clock TC",
            "--size WxH",
            "--review",
            "-h, --help",
        ] {
            assert!(USAGE.contains(flag), "{flag}");
        }
    }
}
