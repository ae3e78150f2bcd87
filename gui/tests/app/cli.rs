//! The `gui` binary's command line without a display: `--help` prints the usage and exits 0, an
//! unknown flag is a one-line error with exit status 2 (no window, no winit error either way).

use std::process::{Command, Output};

/// Runs the real `gui` binary with no display at all.
fn gui(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gui"))
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("gui runs")
}

#[test]
fn help_prints_every_flag_and_exits_0_without_a_display() {
    for flag in ["--help", "-h"] {
        let out = gui(&["--engines", flag]);
        let text = String::from_utf8_lossy(&out.stdout);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{flag}: {err}");
        assert!(err.is_empty(), "{flag}: {err}");
        assert!(text.starts_with("Usage: gui "), "{text}");
        for word in [
            "--engines",
            "--analyse",
            "--tree DEPTH",
            "--edit",
            "--console",
            "--solve",
            "--clock TC",
            "GAME SIZE [MOVE...]",
        ] {
            assert!(text.contains(word), "{flag}: {word} missing from\n{text}");
        }
    }
}

#[test]
fn unknown_flag_is_one_line_and_exit_2() {
    for (args, says) in [
        (&["--bogus"][..], "unknown option '--bogus'"),
        (&["oska", "4", "--tree", "x"][..], "'x' is not a number"),
    ] {
        let out = gui(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("gui: ") && err.contains(says),
            "{args:?}: {err}"
        );
    }
}
