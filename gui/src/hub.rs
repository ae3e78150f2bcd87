//! The engine hub: owns the tokio runtime, the waker that repaints the window, and every engine
//! process — White's and Black's players, the analysis engine, and (through the handles it
//! gives them) the search tree's and the solver's. [`Hub::spawn`] is the one place where an
//! engine starts and [`Hub::end`] the one where it ends; [`Hub::shutdown`] waits until every
//! process is reaped.
//!
//! Each frame, [`Hub::drive`] reads the engines' events into the [`Model`], asks the engine of
//! the side to move for a move when it is its turn, stops a search that has become stale (a new
//! position, pause, a new game), and keeps the analysis engine on the shown position. It never
//! blocks.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use boardgames_core::games::Side;
use boardgames_core::protocol::Go;
use boardgames_tools::client::EngineInfo;
use eframe::egui;

use crate::console::{Console, Role};
use crate::controller::{EngineEvent, EngineHandle, Launch, Request, Search, SharedLog, Waker};
use crate::error::EngineError;
use crate::model::{ANALYSIS, Model, SearchState, Seat, side_name};
use crate::settings::Settings;

/// A player's engine process.
struct Slot {
    handle: EngineHandle,
    launch: Launch,
    /// The name it was chosen by (a saved engine's, or the program).
    label: String,
    /// Its `id name`, once the handshake is done.
    id: Option<String>,
    /// The last `info string` of the running search (its own words on a failure).
    said: Option<String>,
}

/// The search a player's engine is asked for.
#[derive(Clone, Copy, Debug)]
struct Pending {
    side: Side,
    id: u64,
    revision: u64,
    /// "Move now" was pressed: `stop` is sent and the `bestmove` that answers it is played.
    moving_now: bool,
}

/// The analysis engine: searches the shown position with `go infinite` while the person looks
/// around the game.
struct Analysis {
    handle: EngineHandle,
    launch: Launch,
    /// The name it was chosen by.
    label: String,
    /// What it said about itself, once the handshake is done.
    info: Option<EngineInfo>,
    /// The `MultiPV` value sent (1 until one is sent).
    lines: u32,
    /// Whether the person was told that the engine offers no `MultiPV`.
    told: bool,
    /// The search running: its id, and the game revision and view it is about.
    current: Option<(u64, u64, usize)>,
}

/// How an engine is named: the name it was chosen by, and its own `id name` when that differs.
pub fn display_name(label: &str, id: Option<&str>) -> String {
    match id {
        Some(id) if id != label => format!("{label} ({id})"),
        _ => label.to_string(),
    }
}

/// Every engine process of the app, and the runtime they run on.
pub struct Hub {
    runtime: Option<tokio::runtime::Runtime>,
    repaint: Arc<Mutex<Option<egui::Context>>>,
    players: [Option<Slot>; 2],
    pending: Option<Pending>,
    analysis: Option<Analysis>,
    next_id: u64,
    /// The tasks of engines told to quit, until their processes are reaped.
    ending: Vec<tokio::task::JoinHandle<()>>,
    /// The model's epoch the players' engines belong to.
    epoch: u64,
}

impl Default for Hub {
    fn default() -> Self {
        Hub::new()
    }
}

impl Hub {
    /// A hub with its runtime (one worker thread); no engine runs yet.
    pub fn new() -> Hub {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("engines")
            .enable_all()
            .build()
            .ok();
        Hub {
            runtime,
            repaint: Arc::new(Mutex::new(None)),
            players: [None, None],
            pending: None,
            analysis: None,
            next_id: 1,
            ending: Vec::new(),
            epoch: 0,
        }
    }

    /// Sets the window to repaint when an engine's event arrives (the first call counts).
    pub fn set_context(&self, ctx: &egui::Context) {
        let mut slot = self.repaint.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(ctx.clone());
        }
    }

    fn waker(&self) -> Waker {
        let ctx = Arc::clone(&self.repaint);
        Arc::new(move || {
            if let Some(c) = ctx.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
                c.request_repaint();
            }
        })
    }

    /// Whether engines can run (the runtime started).
    pub fn runs(&self) -> bool {
        self.runtime.is_some()
    }

    /// Starts an engine process (`None` when there is no runtime); its lines go to `log`.
    pub fn spawn(&self, launch: Launch, log: SharedLog) -> Option<EngineHandle> {
        let runtime = self.runtime.as_ref()?;
        Some(EngineHandle::spawn(
            runtime.handle(),
            launch,
            self.waker(),
            Some(log),
        ))
    }

    /// Ends an engine process: `quit`, then a kill after a short grace; it is reaped in the
    /// background (and awaited by [`Hub::shutdown`]).
    pub fn end(&mut self, handle: EngineHandle) {
        if let Some(task) = handle.quit() {
            self.ending.push(task);
        }
    }

    /// Sends a protocol command typed in the console to White's or Black's engine, or to the
    /// analysis engine, while it does not search. `Err` says why it was not sent.
    pub fn type_command(&self, role: Role, text: &str) -> Result<(), EngineError> {
        let handle = match role {
            Role::White | Role::Black => {
                let i = usize::from(role == Role::Black);
                if self.pending.is_some_and(|p| p.side.index() == i) {
                    return Err(EngineError::Thinking);
                }
                self.players[i].as_ref().map(|s| &s.handle)
            }
            Role::Analysis => match &self.analysis {
                Some(a) if a.current.is_some() => {
                    return Err(EngineError::Analysing);
                }
                Some(a) => Some(&a.handle),
                None => None,
            },
            _ => return Err(EngineError::NoEngine),
        };
        let handle = handle.ok_or(EngineError::NotRunning)?;
        handle.send(Request::Typed(text.to_string()));
        Ok(())
    }

    /// Whether the analysis engine runs.
    pub fn analysing(&self) -> bool {
        self.analysis.is_some()
    }

    /// The names of the running players' engines (White's, Black's): their `id name` once the
    /// handshake is done, else the name they were chosen by.
    pub fn engine_names(&self) -> [Option<String>; 2] {
        [0, 1].map(|i| {
            self.players[i]
                .as_ref()
                .map(|s| s.id.clone().unwrap_or_else(|| s.label.clone()))
        })
    }

    /// The analysis engine's name (as [`display_name`] gives it) and the options it declared
    /// after `uci` (empty until its handshake is done).
    pub fn analysis_engine(&self) -> Option<(String, Vec<boardgames_core::protocol::OptionDecl>)> {
        self.analysis.as_ref().map(|a| {
            let id = a.info.as_ref().map(|i| i.name.as_str());
            let options = a.info.as_ref().map_or_else(Vec::new, |i| i.options.clone());
            (display_name(&a.label, id), options)
        })
    }

    /// Asks the thinking engine to move at once: `stop`, and its answer is played.
    pub fn move_now(&mut self, model: &mut Model) {
        if let Some(p) = self.pending.as_mut()
            && !p.moving_now
            && let Some(slot) = &self.players[p.side.index()]
        {
            slot.handle.send(Request::Stop);
            p.moving_now = true;
        }
        self.sync(model);
    }

    /// Ends both players' engines (their searches are shown as stopped).
    pub fn end_players(&mut self, model: &mut Model) {
        if let Some(p) = self.pending.take() {
            model.finish_search(p.side.index(), SearchState::Stopped);
        }
        for i in 0..2 {
            if let Some(slot) = self.players[i].take() {
                self.end(slot.handle);
            }
        }
        self.sync(model);
    }

    /// Starts or ends the analysis engine (the settings' analysis engine, searching the shown
    /// position).
    pub fn set_analysis(
        &mut self,
        on: bool,
        model: &mut Model,
        settings: &Settings,
        console: &Console,
    ) -> Result<(), EngineError> {
        if !on {
            if let Some(a) = self.analysis.take() {
                self.end(a.handle);
            }
            // The last evaluation stays in its panel, marked stopped (as lichess keeps it).
            model.finish_search(ANALYSIS, SearchState::Stopped);
            self.sync(model);
            return Ok(());
        }
        if self.analysis.is_some() {
            return Ok(());
        }
        let launch = settings.analysis_launch();
        let handle = self
            .spawn(launch.clone(), console.log(Role::Analysis))
            .ok_or(EngineError::NoRuntime)?;
        let label = if settings.saved(&settings.analysis).is_some() {
            settings.analysis.clone()
        } else {
            "engine (ours)".to_string()
        };
        self.analysis = Some(Analysis {
            handle,
            launch,
            label,
            info: None,
            lines: 1,
            told: false,
            current: None,
        });
        self.sync(model);
        Ok(())
    }

    /// Reads every engine's events into `model` and starts the searches that are due. Never
    /// blocks.
    pub fn drive(&mut self, model: &mut Model, settings: &Settings, console: &Console) {
        self.ending.retain(|t| !t.is_finished());
        self.drive_players(model, settings, console);
        if self
            .analysis
            .as_ref()
            .is_some_and(|a| a.launch != settings.analysis_launch())
        {
            // Another analysis engine was chosen (or its saved entry changed): restart it.
            let _ = self.set_analysis(false, model, settings, console);
            if let Err(e) = self.set_analysis(true, model, settings, console) {
                model.error(e.to_string());
            }
        }
        self.drive_analysis(model, settings);
        self.sync(model);
    }

    /// Tells the model what the players' engines are doing.
    fn sync(&self, model: &mut Model) {
        for i in 0..2 {
            let seat = self.players[i].as_ref().map(|s| Seat {
                name: display_name(&s.label, s.id.as_deref()),
                ready: s.id.is_some(),
            });
            model.set_seat(i, seat);
        }
        model.set_thinking(
            self.pending.map(|p| p.side),
            self.pending.is_some_and(|p| p.moving_now),
        );
        model.set_analysing(self.analysis.is_some());
    }

    fn drive_players(&mut self, model: &mut Model, settings: &Settings, console: &Console) {
        for side in [Side::White, Side::Black] {
            let events = match &self.players[side.index()] {
                Some(s) => s.handle.poll(),
                None => continue,
            };
            for event in events {
                self.on_event(side, event, model);
            }
        }
        if model.epoch() != self.epoch {
            self.epoch = model.epoch();
            self.end_players(model);
        }
        // An engine's move is charged to its clock as soon as it arrives.
        model.tick_clocks(Instant::now());
        for i in 0..2 {
            let player = &settings.players[i];
            let stale = self.players[i]
                .as_ref()
                .is_some_and(|s| !player.engine || s.launch != settings.player_launch(i));
            if stale {
                if self.pending.is_some_and(|p| p.side.index() == i) {
                    self.pending = None;
                    model.finish_search(i, SearchState::Stopped);
                }
                if let Some(slot) = self.players[i].take() {
                    self.end(slot.handle);
                }
            }
        }
        let game = model.game();
        let ply = game.len();
        let side = game.side_to_move(ply);
        let player = settings.players[side.index()].clone();
        let wants = player.engine && !model.paused() && model.halted().is_none() && !model.over();
        if let Some(p) = self.pending
            && (!wants || p.side != side || p.revision != model.revision())
        {
            if let Some(slot) = &self.players[p.side.index()] {
                slot.handle.send(Request::Stop);
            }
            self.pending = None;
            model.finish_search(p.side.index(), SearchState::Stopped);
        }
        if !wants || self.pending.is_some() {
            return;
        }
        let i = side.index();
        if self.players[i].is_none() {
            let launch = settings.player_launch(i);
            let role = if side == Side::White {
                Role::White
            } else {
                Role::Black
            };
            let Some(handle) = self.spawn(launch.clone(), console.log(role)) else {
                return model.halt(
                    Some(side),
                    "the engines cannot run: no async runtime could be started".into(),
                );
            };
            self.players[i] = Some(Slot {
                handle,
                label: settings.player_label(i),
                id: None,
                launch,
                said: None,
            });
        }
        let id = self.next_id;
        self.next_id += 1;
        let game = model.game();
        let request = Request::Think(Search {
            id,
            game: game.kind(),
            size: u32::try_from(game.size()).unwrap_or(u32::MAX),
            setup: game.setup(),
            moves: game.move_names(),
            go: model
                .clock_go(Instant::now())
                .unwrap_or_else(|| player.go()),
        });
        model.start_search(i, format!("{}'s engine", side_name(side)), ply);
        if let Some(slot) = self.players[i].as_mut() {
            slot.said = None;
            slot.handle.send(request);
            model.name_search(i, display_name(&slot.label, slot.id.as_deref()));
        }
        self.pending = Some(Pending {
            side,
            id,
            revision: model.revision(),
            moving_now: false,
        });
    }

    fn on_event(&mut self, side: Side, event: EngineEvent, model: &mut Model) {
        let i = side.index();
        let mine = |p: &Option<Pending>, id: u64| p.is_some_and(|p| p.id == id && p.side == side);
        match event {
            EngineEvent::Ready(info) => {
                if let Some(s) = self.players[i].as_mut() {
                    s.id = Some(info.name);
                    // A search asked before the handshake ended names the engine in full now.
                    if self.pending.is_some_and(|p| p.side == side) {
                        model.name_search(i, display_name(&s.label, s.id.as_deref()));
                    }
                }
            }
            EngineEvent::Refused(text) => {
                model.error(format!("{}'s engine: {text}", side_name(side)))
            }
            EngineEvent::Thinking(_) | EngineEvent::Trace { .. } | EngineEvent::Progress { .. } => {
            }
            EngineEvent::Said { id, text } => {
                if mine(&self.pending, id)
                    && let Some(s) = self.players[i].as_mut()
                {
                    s.said = Some(text);
                }
            }
            EngineEvent::Search { id, info } => {
                if mine(&self.pending, id) {
                    model.search_info(i, info);
                }
            }
            EngineEvent::BestMove { id, best } => self.answer(side, id, best, false, model),
            EngineEvent::Stopped { id, best } => self.answer(side, id, best, true, model),
            EngineEvent::Failed(why) => {
                if self.pending.is_some_and(|p| p.side == side) {
                    self.pending = None;
                }
                let said = self.players[i].as_ref().and_then(|s| s.said.clone());
                model.finish_search(i, SearchState::Failed);
                let who = format!("{}'s engine", side_name(side));
                let why = match said {
                    Some(text) => format!("{who} failed: {why} (it said: {text})"),
                    None => format!("{who} failed: {why}"),
                };
                model.halt(Some(side), why);
            }
            EngineEvent::Ended => {
                if let Some(slot) = self.players[i].take() {
                    self.end(slot.handle);
                }
            }
        }
    }

    /// A player's engine answered search `id` (`stopped`: the answer to `stop`, which counts
    /// only when "Move now" asked for it).
    fn answer(
        &mut self,
        side: Side,
        id: u64,
        best: Option<String>,
        stopped: bool,
        model: &mut Model,
    ) {
        let Some(p) = self.pending.filter(|p| p.id == id && p.side == side) else {
            return;
        };
        if stopped && !p.moving_now {
            return;
        }
        self.pending = None;
        let said = self.players[side.index()]
            .as_ref()
            .and_then(|s| s.said.clone());
        model.engine_move(side, p.revision, best.as_deref(), said.as_deref());
    }

    fn drive_analysis(&mut self, model: &mut Model, settings: &Settings) {
        let Some(a) = self.analysis.as_mut() else {
            return;
        };
        let mut failed = None;
        for event in a.handle.poll() {
            match event {
                EngineEvent::Ready(info) => a.info = Some(info),
                EngineEvent::Refused(text) => model.error(format!("the analysis engine: {text}")),
                EngineEvent::Search { id, info } if a.current.is_some_and(|c| c.0 == id) => {
                    model.search_info(ANALYSIS, info);
                }
                EngineEvent::BestMove { id, .. } if a.current.is_some_and(|c| c.0 == id) => {
                    model.finish_search(ANALYSIS, SearchState::Done);
                }
                EngineEvent::Failed(why) => failed = Some(why),
                _ => {}
            }
        }
        if let Some(why) = failed {
            if let Some(a) = self.analysis.take() {
                self.end(a.handle);
            }
            model.clear_search(ANALYSIS);
            return model.error(format!("the analysis engine failed: {why}"));
        }
        // The first search waits for the handshake, so that MultiPV is set before it.
        let Some(info) = &a.info else {
            return;
        };
        let wanted = settings.lines();
        if wanted != a.lines {
            if info.options.iter().any(|o| o.name == "MultiPV") {
                a.handle.send(Request::SetOption {
                    name: "MultiPV".into(),
                    value: wanted.to_string(),
                });
                a.lines = wanted;
                // The running search (stopped by the request) starts again with the new lines.
                a.current = None;
            } else if !a.told {
                a.told = true;
                model.note(format!(
                    "{} offers no MultiPV option: it shows one line",
                    display_name(&a.label, Some(&info.name))
                ));
            }
        }
        let key = (model.revision(), model.view());
        if a.current.is_some_and(|c| (c.1, c.2) == key) {
            return;
        }
        let id = self.next_id;
        self.next_id += 1;
        a.current = Some((id, key.0, key.1));
        let game = model.game();
        let view = model.view();
        if game.outcome(view).is_some() {
            a.handle.send(Request::Stop);
            model.clear_search(ANALYSIS);
            return;
        }
        a.handle.send(Request::Think(Search {
            id,
            game: game.kind(),
            size: u32::try_from(game.size()).unwrap_or(u32::MAX),
            setup: game.setup(),
            moves: game.move_names()[..view].to_vec(),
            go: Go::Infinite,
        }));
        model.start_search(ANALYSIS, "Analysis".into(), view);
        model.name_search(ANALYSIS, display_name(&a.label, Some(&info.name)));
    }

    /// Ends every engine still held here (`quit`, then a kill after a short grace) and waits
    /// until every process ended through the hub is reaped (at most a few seconds). The search
    /// tree's and the solver's handles must have been given back with [`Hub::end`] first.
    pub fn shutdown(&mut self) {
        self.pending = None;
        for i in 0..2 {
            if let Some(slot) = self.players[i].take() {
                self.end(slot.handle);
            }
        }
        if let Some(a) = self.analysis.take() {
            self.end(a.handle);
        }
        let tasks = std::mem::take(&mut self.ending);
        if let Some(rt) = self.runtime.take() {
            rt.block_on(async {
                let all = async {
                    for t in tasks {
                        let _ = t.await;
                    }
                };
                let _ = tokio::time::timeout(Duration::from_secs(3), all).await;
            });
            rt.shutdown_timeout(Duration::from_secs(1));
        }
    }
}
