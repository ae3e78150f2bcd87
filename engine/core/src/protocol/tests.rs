use proptest::prelude::*;

use super::*;

fn mv() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => Just("pass".to_string()),
        9 => "[a-k](1|[2-9]|1[01])[a-k](1|[2-9]|1[01])",
    ]
}

fn move_text() -> impl Strategy<Value = MoveText> {
    mv().prop_map(|m| MoveText::parse(&m).expect("a move"))
}

fn board() -> impl Strategy<Value = String> {
    "[wbWB-]{1,8}(/[wbWB-]{1,8}){0,4}"
}

fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9]([a-zA-Z0-9 .,:'=-]{0,20}[a-zA-Z0-9])?"
}

fn word() -> impl Strategy<Value = String> {
    "[A-Za-z][A-Za-z0-9_-]{0,10}"
}

fn game() -> impl Strategy<Value = GameKind> {
    prop::sample::select(GameKind::ALL.to_vec())
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::White), Just(Side::Black)]
}

fn go() -> impl Strategy<Value = Go> {
    prop_oneof![
        (1..=u32::MAX).prop_map(Go::Depth),
        (1..=u64::MAX).prop_map(Go::Nodes),
        (1..=u64::MAX).prop_map(Go::MoveTime),
        Just(Go::Infinite),
        any::<u32>().prop_map(Go::Perft),
        Just(Go::Solve),
        (
            any::<u64>(),
            any::<u64>(),
            any::<u64>(),
            any::<u64>(),
            prop::option::of(1..=u32::MAX)
        )
            .prop_map(|(wtime, btime, winc, binc, movestogo)| Go::Clock(Clock {
                wtime,
                btime,
                winc,
                binc,
                movestogo
            })),
    ]
}

fn setup() -> impl Strategy<Value = Setup> {
    prop_oneof![
        Just(Setup::StartPos),
        (board(), side(), prop::collection::vec(board(), 0..4)).prop_map(
            |(board, side, history)| Setup::Board {
                board: board.parse().unwrap(),
                side,
                history: history.iter().map(|h| h.parse().unwrap()).collect(),
            }
        ),
    ]
}

fn command() -> impl Strategy<Value = Command> {
    let setup = setup();
    prop_oneof![
        Just(Command::Uci),
        Just(Command::IsReady),
        Just(Command::Stop),
        Just(Command::Quit),
        Just(Command::Show),
        Just(Command::Legal),
        (word(), word()).prop_map(|(name, value)| Command::SetOption { name, value }),
        (game(), any::<u32>()).prop_map(|(game, size)| Command::NewGame { game, size }),
        (setup, prop::collection::vec(move_text(), 0..6))
            .prop_map(|(setup, moves)| Command::Position { setup, moves }),
        go().prop_map(Command::Go),
    ]
}

fn score() -> impl Strategy<Value = Score> {
    prop_oneof![
        any::<i32>().prop_map(Score::Cp),
        any::<u32>().prop_map(Score::Win),
        any::<u32>().prop_map(Score::Loss),
        Just(Score::Draw),
    ]
}

fn reply() -> impl Strategy<Value = Reply> {
    let option = prop_oneof![
        (word(), any::<i64>(), any::<i64>(), any::<i64>()).prop_map(|(name, default, min, max)| {
            OptionDecl {
                name,
                kind: OptionKind::Spin { default, min, max },
            }
        }),
        (word(), any::<bool>()).prop_map(|(name, default)| OptionDecl {
            name,
            kind: OptionKind::Check { default }
        }),
        // The default is one of the values, or any word (the parser does not check it); a value
        // may even be spelt `var` or `default`.
        (
            word(),
            prop::collection::vec(prop_oneof![4 => word(), 1 => Just("var".to_string())], 1..6),
            any::<prop::sample::Index>(),
            prop::option::of(word()),
        )
            .prop_map(|(name, vars, pick, other)| OptionDecl {
                name,
                kind: OptionKind::Combo {
                    default: other.unwrap_or_else(|| pick.get(&vars).clone()),
                    vars,
                }
            }),
        (word(), prop_oneof![word(), Just("<empty>".to_string())]).prop_map(|(name, default)| {
            OptionDecl {
                name,
                kind: OptionKind::String { default },
            }
        }),
    ];
    let info = prop_oneof![
        (
            any::<u32>(),
            prop::option::of(1..=u32::MAX),
            score(),
            any::<u64>(),
            any::<u64>(),
            any::<u64>(),
            prop_oneof![Just(0u64), any::<u64>()],
            prop::collection::vec(mv(), 0..5)
        )
            .prop_map(|(depth, multipv, score, nodes, nps, time_ms, tbhits, pv)| {
                Info::Search(SearchInfo {
                    depth,
                    multipv,
                    score,
                    nodes,
                    nps,
                    time_ms,
                    tbhits,
                    pv,
                })
            }),
        (
            (any::<u64>(), any::<u64>(), any::<u64>()),
            prop::option::of(word()),
            prop::option::of((any::<u32>(), any::<u32>())),
            prop::option::of(score()),
        )
            .prop_map(|((nodes, nps, time_ms), stage, root, bound)| {
                Info::Progress(ProgressInfo {
                    nodes,
                    nps,
                    time_ms,
                    stage,
                    root,
                    bound,
                })
            }),
        text().prop_map(Info::Trace),
        prop_oneof![Just(String::new()), text()].prop_map(Info::String),
        "(currmove|hashfull|x)( [a-z0-9]{1,5}){0,3}".prop_map(Info::Other),
    ];
    let result = (
        prop::option::of(side()),
        "[a-z][a-z-]{0,12}".prop_map(String::from),
    )
        .prop_map(|(winner, reason)| GameResult { winner, reason });
    prop_oneof![
        text().prop_map(Reply::IdName),
        text().prop_map(Reply::IdAuthor),
        (game(), any::<u32>(), any::<u32>()).prop_map(|(game, min, max)| Reply::Game {
            game,
            min,
            max
        }),
        option.prop_map(Reply::Option),
        Just(Reply::UciOk),
        Just(Reply::ReadyOk),
        info.prop_map(Reply::Info),
        prop::option::of(move_text()).prop_map(Reply::BestMove),
        prop::option::of(result).prop_map(Reply::Result),
        (mv(), any::<u64>()).prop_map(|(mv, nodes)| Reply::Perft { mv, nodes }),
        any::<u64>().prop_map(Reply::Nodes),
        (
            game(),
            any::<u32>(),
            board(),
            side(),
            prop::option::of((setup(), prop::collection::vec(move_text(), 1..4)))
        )
            .prop_map(|(game, size, board, side, from)| Reply::Board {
                game,
                size,
                board: board.parse().expect("the strategy spells boards right"),
                side,
                from
            }),
        prop::collection::vec(mv(), 0..8).prop_map(Reply::Legal),
        (
            prop::sample::select(ErrorCode::ALL.to_vec()),
            prop_oneof![Just(String::new()), text()]
        )
            .prop_map(|(code, message)| Reply::Error { code, message }),
    ]
}

proptest! {
    #[test]
    fn commands_round_trip(cmd in command()) {
        let line = cmd.to_string();
        prop_assert_eq!(Command::parse(&line), Ok(cmd.clone()), "line {}", line);
        // Blanks and tabs around and between the words change nothing (the line ending is the
        // reader's: see session::reader).
        let spaced = format!(" \t{} \t", line.replace(' ', " \t "));
        prop_assert_eq!(Command::parse(&spaced), Ok(cmd));
    }

    #[test]
    fn replies_round_trip(reply in reply()) {
        let line = reply.to_string();
        prop_assert_eq!(Reply::parse(&line), Ok(reply), "line {}", line);
    }

    #[test]
    fn any_text_parses_or_fails_cleanly(line in ".{0,80}") {
        let _ = Command::parse(&line);
        let _ = Reply::parse(&line);
    }
}

fn code(line: &str) -> ErrorCode {
    Command::parse(line).expect_err(line).code
}

#[test]
fn error_codes() {
    assert_eq!(code("hello"), ErrorCode::UnknownCommand);
    assert_eq!(code("ucinewgame"), ErrorCode::UnknownCommand);
    assert_eq!(code("uci now"), ErrorCode::Syntax);
    assert_eq!(code("go"), ErrorCode::Syntax);
    assert_eq!(code("go depth"), ErrorCode::Syntax);
    assert_eq!(code("go depth x"), ErrorCode::Syntax);
    assert_eq!(code("go depth -3"), ErrorCode::Syntax);
    assert_eq!(code("go depth 0"), ErrorCode::BadValue);
    assert_eq!(code("go depth 99999999999999999999"), ErrorCode::BadValue);
    assert_eq!(code("go fast"), ErrorCode::Syntax);
    assert_eq!(code("newgame chess 8"), ErrorCode::BadValue);
    assert_eq!(code("newgame OSKA 4"), ErrorCode::BadValue);
    assert_eq!(code("newgame capture 5"), ErrorCode::BadValue);
    assert_eq!(code("go depth +3"), ErrorCode::Syntax);
    assert_eq!(code("newgame oska"), ErrorCode::Syntax);
    assert_eq!(code("position"), ErrorCode::Syntax);
    assert_eq!(code("position startpos moves d1c2 zz"), ErrorCode::Syntax);
    assert_eq!(code("position board www/---/bbb x"), ErrorCode::Syntax);
    assert_eq!(
        code("position board www/---/bbb w history"),
        ErrorCode::Syntax
    );
    assert_eq!(code("position board ww?/---/bbb w"), ErrorCode::Syntax);
    assert_eq!(code("setoption name Hash"), ErrorCode::Syntax);
    assert_eq!(code("setoption Hash 3"), ErrorCode::Syntax);
}

#[test]
fn clocks() {
    let clock = |line: &str| match Command::parse(line) {
        Ok(Command::Go(Go::Clock(c))) => c,
        other => panic!("{line}: {other:?}"),
    };
    let c = clock("go wtime 60000 btime 59000 winc 600 binc 500 movestogo 40");
    assert_eq!(
        c,
        Clock {
            wtime: 60000,
            btime: 59000,
            winc: 600,
            binc: 500,
            movestogo: Some(40)
        }
    );
    assert_eq!(c.of(Side::Black), (59000, 500));
    // Any order; increments and movestogo are optional; a time may be 0.
    let c = clock("go  btime 0 wtime 1000");
    assert_eq!(
        (c.wtime, c.btime, c.winc, c.binc, c.movestogo),
        (1000, 0, 0, 0, None)
    );
    assert_eq!(
        Command::Go(Go::Clock(c)).to_string(),
        "go wtime 1000 btime 0"
    );
    assert_eq!(code("go wtime 1000"), ErrorCode::Syntax);
    assert_eq!(code("go winc 10 binc 10"), ErrorCode::Syntax);
    assert_eq!(code("go wtime 1 btime 1 wtime 2"), ErrorCode::Syntax);
    assert_eq!(code("go wtime 1 btime"), ErrorCode::Syntax);
    assert_eq!(code("go wtime 1 btime -1"), ErrorCode::Syntax);
    assert_eq!(code("go wtime 1 btime 1 depth 3"), ErrorCode::Syntax);
    assert_eq!(code("go wtime 1 btime 1 movestogo 0"), ErrorCode::BadValue);
    assert_eq!(
        code("go wtime 1 btime 1 movestogo 4294967296"),
        ErrorCode::BadValue
    );
    assert_eq!(
        code("go wtime 99999999999999999999 btime 1"),
        ErrorCode::BadValue
    );
    let e = Command::parse("go wtime 1 btime 1 winc 2 winc 3").unwrap_err();
    assert!(e.message.contains("'winc' is given twice"), "{}", e.message);
}

#[test]
fn messages_name_the_failing_word() {
    let e = Command::parse("position startpos moves d1c2 c2b3 q").unwrap_err();
    assert!(e.message.contains("move 3 'q'"), "{}", e.message);
    let e = Command::parse("go depth 12345678901234").unwrap_err();
    assert!(e.message.contains("12345678901234"), "{}", e.message);
}

#[test]
fn examples() {
    assert_eq!(
        Command::parse(
            "position board -wWw--www-------bbb--bBb- b history -wWw--www-------bbb--bBb- moves c4c3"
        ),
        Ok(Command::Position {
            setup: Setup::Board {
                board: "-wWw--www-------bbb--bBb-".parse().unwrap(),
                side: Side::Black,
                history: vec!["-wWw--www-------bbb--bBb-".parse().unwrap()],
            },
            moves: vec![MoveText::Squares {
                from: (3, 2),
                to: (2, 2)
            }],
        })
    );
    assert_eq!(
        Reply::parse("info depth 3 score win 5 nodes 100 nps 2000 time 50 pv d1c2 pass"),
        Ok(Reply::Info(Info::Search(SearchInfo {
            depth: 3,
            multipv: None,
            score: Score::Win(5),
            nodes: 100,
            nps: 2000,
            time_ms: 50,
            tbhits: 0,
            pv: vec!["d1c2".into(), "pass".into()],
        })))
    );
    assert_eq!(
        Reply::parse("info depth 1 score loss 48 nodes 9 nps 900 time 10 tbhits 8 pv a1b2"),
        Ok(Reply::Info(Info::Search(SearchInfo {
            depth: 1,
            multipv: None,
            score: Score::Loss(48),
            nodes: 9,
            nps: 900,
            time_ms: 10,
            tbhits: 8,
            pv: vec!["a1b2".into()],
        })))
    );
    let two = "info depth 4 multipv 2 score cp -30 nodes 77 nps 7700 time 10 pv a1b2 c3d4";
    assert_eq!(
        Reply::parse(two),
        Ok(Reply::Info(Info::Search(SearchInfo {
            depth: 4,
            multipv: Some(2),
            score: Score::Cp(-30),
            nodes: 77,
            nps: 7700,
            time_ms: 10,
            tbhits: 0,
            pv: vec!["a1b2".into(), "c3d4".into()],
        })))
    );
    assert_eq!(Reply::parse(two).unwrap().to_string(), two);
    let code = |line: &str| Reply::parse(line).map_err(|e| e.code);
    assert_eq!(
        code("info depth 4 multipv 0 score cp 1 nodes 7 nps 7 time 1 pv"),
        Err(ErrorCode::BadValue)
    );
    assert_eq!(
        code("info depth 4 multipv score cp 1 nodes 7 nps 7 time 1 pv"),
        Err(ErrorCode::Syntax)
    );
    // The line number comes right after the depth, as in UCI.
    assert_eq!(
        code("info depth 4 score cp 1 multipv 2 nodes 7 nps 7 time 1 pv"),
        Err(ErrorCode::Syntax)
    );
    assert_eq!(
        Reply::parse("result draw both-home-equal"),
        Ok(Reply::Result(Some(GameResult {
            winner: None,
            reason: "both-home-equal".into()
        })))
    );
    assert_eq!(meaningful("  # comment"), None);
    assert_eq!(meaningful("\t "), None);
    assert_eq!(meaningful(" uci\t"), Some("uci"));
}

#[test]
fn combo_options() {
    let line = "option name Evaluator type combo default tuned var tuned var legacy var material var classic-advance var classic-race";
    let decl = OptionDecl {
        name: "Evaluator".into(),
        kind: OptionKind::Combo {
            default: "tuned".into(),
            vars: [
                "tuned",
                "legacy",
                "material",
                "classic-advance",
                "classic-race",
            ]
            .map(String::from)
            .to_vec(),
        },
    };
    assert_eq!(Reply::parse(line), Ok(Reply::Option(decl.clone())));
    assert_eq!(Reply::Option(decl).to_string(), line);
    // Tabs and repeated blanks between the words are fine.
    assert!(Reply::parse("option name E\ttype combo  default a   var a\tvar b").is_ok());
    for bad in [
        "option name E type combo",
        "option name E type combo default",
        "option name E type combo default a",
        "option name E type combo default a var",
        "option name E type combo default a var a b",
        "option name E type combo default a value a",
        "option name E type combo a var a",
        "option name E type string",
        "option name E type string default",
        "option name E type string default a b",
    ] {
        let e = Reply::parse(bad).expect_err(bad);
        assert_eq!(e.code, ErrorCode::Syntax, "{bad}: {e}");
    }
}

#[test]
fn one_rule_for_blanks_and_characters() {
    // Words are separated by spaces and tabs; blanks at either end are dropped.
    assert_eq!(Command::parse(" \tuci \t"), Ok(Command::Uci));
    assert_eq!(
        Command::parse("go\t depth  3"),
        Ok(Command::Go(Go::Depth(3)))
    );
    // Any other control character, or any character outside ASCII, is refused wherever it is,
    // and the message names its byte position and the character, which the session escapes
    // (once) as it writes the reply.
    for (line, at) in [
        ("uci\x0b", "byte 4 is \\x0b"),
        ("uci\r", "byte 4 is \\x0d"),
        ("uci\r ", "byte 4 is \\x0d"),
        ("\ruci", "byte 1 is \\x0d"),
        ("foo\rbestmove a1a2", "byte 4 is \\x0d"),
        (
            "position startpos moves a1a2\u{3000}",
            "byte 29 is \\xe3\\x80\\x80",
        ),
        (
            "position startpos moves a1a2\u{a0}",
            "byte 29 is \\xc2\\xa0",
        ),
        ("go depth \u{661}", "byte 10 is \\xd9\\xa1"),
        ("isready\x00", "byte 8 is \\x00"),
        ("show\x7f", "byte 5 is \\x7f"),
    ] {
        let e = Command::parse(line).unwrap_err();
        assert_eq!(e.code, ErrorCode::Syntax, "{line:?}");
        let written = printable(&e.message);
        assert!(written.starts_with(at), "{line:?}: {written}");
        assert!(!written.contains("\\\\"), "{line:?}: {written}");
    }
    // 'moves' and 'history' need at least one word after them.
    for line in [
        "position startpos moves",
        "position startpos moves ",
        "position board www/---/bbb w moves",
        "position board www/---/bbb w history",
    ] {
        assert_eq!(code(line), ErrorCode::Syntax, "{line}");
    }
    // Blank and comment lines are ignored whatever they contain.
    assert_eq!(meaningful(" \t "), None);
    assert_eq!(meaningful("# \r caf\u{e9}"), None);
    assert_eq!(meaningful("\tuci "), Some("uci"));
}

#[test]
fn printable_escapes_what_is_not_printable_ascii() {
    assert_eq!(printable("plain text ~!"), "plain text ~!");
    assert_eq!(printable("a\rb\nc\td"), "a\\x0db\\x0ac\\x09d");
    assert_eq!(printable("caf\u{e9} \\x0d"), "caf\\xc3\\xa9 \\\\x0d");
    assert_eq!(printable("\x7f\x00"), "\\x7f\\x00");
}

#[test]
fn readable_reads_printable_escapes_back_as_text() {
    // ghc's curly quotes, as an info string carries them.
    let said = printable("error: \u{2022} Not in scope: \u{2018}Capture\u{2019} C:\\x");
    assert_eq!(
        said,
        "error: \\xe2\\x80\\xa2 Not in scope: \\xe2\\x80\\x98Capture\\xe2\\x80\\x99 C:\\\\x"
    );
    assert_eq!(
        readable(&said),
        "error: \u{2022} Not in scope: \u{2018}Capture\u{2019} C:\\\\x"
    );
    // Control characters and invalid UTF-8 stay escaped; plain text is unchanged.
    assert_eq!(readable("a\\x0db\\x1b[2J"), "a\\x0db\\x1b[2J");
    assert_eq!(readable("bad \\xff\\xfe end"), "bad \\xff\\xfe end");
    assert_eq!(readable("plain \\xzz"), "plain \\\\xzz");
    assert_eq!(readable("M\u{fc}ller"), "M\u{fc}ller");
}

#[test]
fn shown_keeps_readable_text_and_escapes_what_moves_or_hides_it() {
    assert_eq!(
        shown("M\u{fc}ller \u{2018}x\u{2019} caf\u{e9}"),
        "M\u{fc}ller \u{2018}x\u{2019} caf\u{e9}"
    );
    assert_eq!(
        shown("a\x1b[2Jb\rc\nd\te\0"),
        "a\\x1b[2Jb\\x0dc\\x0ad\\x09e\\x00"
    );
    // C1 controls, DEL, a bidirectional override, a zero-width space and a byte-order mark.
    assert_eq!(shown("\u{9b}\x7f"), "\\xc2\\x9b\\x7f");
    assert_eq!(
        shown("\u{202e}\u{200b}\u{feff}"),
        "\\xe2\\x80\\xae\\xe2\\x80\\x8b\\xef\\xbb\\xbf"
    );
    assert_eq!(shown("back\\slash"), "back\\\\slash");
}

#[test]
fn progress_lines_and_other_info_nodes_lines() {
    assert_eq!(
        Reply::parse("info nodes 22115 nps 505728 time 43 stage distance root 1/5 bound win 21"),
        Ok(Reply::Info(Info::Progress(ProgressInfo {
            nodes: 22115,
            nps: 505728,
            time_ms: 43,
            stage: Some("distance".into()),
            root: Some((1, 5)),
            bound: Some(Score::Win(21)),
        })))
    );
    assert_eq!(
        Reply::parse("info nodes 9 nps 90 time 100"),
        Ok(Reply::Info(Info::Progress(ProgressInfo {
            nodes: 9,
            nps: 90,
            time_ms: 100,
            stage: None,
            root: None,
            bound: None,
        })))
    );
    // Of another form (UCI's statistics, a field out of order, a bad number): another kind.
    for line in [
        "nodes 5 nps 3 hashfull 4",
        "nodes 5",
        "nodes 5 nps 3 time 1 root 1/2 stage wdl",
        "nodes 5 nps 3 time 1 root 1-2",
        "nodes 5 nps 3 time 1 bound win",
        "nodes -5 nps 3 time 1",
    ] {
        assert_eq!(
            Reply::parse(&format!("info {line}")),
            Ok(Reply::Info(Info::Other(line.into()))),
            "{line}"
        );
    }
}
