//! Drawing the board with egui's painter, and finding squares on screen.
//!
//! Rows are centred under each other, as the rules page and the seeds' diagrams draw them: square
//! `j` of a row of length `L` sits `j - (L-1)/2` squares right of the board's centre line. For
//! Hexapawn and Capture the Flag every row has the same length, so this is an ordinary grid.

use boardgames_core::games::{GameKind, Layout, Move, Piece, Side};
use eframe::egui::{self, Color32, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};

/// Where each square of a board is drawn inside a rectangle.
#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    /// The side of one square, in points.
    pub cell: f32,
    /// The rectangle of every square, indexed by square number.
    pub squares: Vec<Rect>,
    /// The square whose piece is being dragged, and where that piece was drawn.
    pub dragged: Option<(usize, Pos2)>,
    /// The squares marked as targets.
    pub targets: Vec<usize>,
    /// The piece drawn on its way.
    pub slide: Option<Slide>,
}

impl Geometry {
    /// Lays out `layout` in `area`, leaving a margin of about one square for the coordinates.
    /// With `flipped`, the board is turned half a turn (Black's home row at the top).
    pub fn new(layout: &Layout, area: Rect, flipped: bool) -> Geometry {
        let rows = layout.rows();
        let (widest, high) = Geometry::extent(layout);
        let cell = (area.width() / widest).min(area.height() / high).max(4.0);
        let centre = area.center();
        let top = centre.y - cell * rows as f32 / 2.0;
        let squares = (0..layout.squares())
            .map(|sq| {
                let (mut r, mut c) = layout.coords(sq);
                let len = layout.row_len(r);
                if flipped {
                    r = rows - 1 - r;
                    c = len - 1 - c;
                }
                let x = centre.x + (c as f32 - (len as f32 - 1.0) / 2.0) * cell;
                let y = top + (r as f32 + 0.5) * cell;
                Rect::from_center_size(Pos2::new(x, y), Vec2::splat(cell))
            })
            .collect();
        Geometry {
            cell,
            squares,
            dragged: None,
            targets: Vec::new(),
            slide: None,
        }
    }

    /// How many squares wide and high the board is drawn, with the margin for the
    /// coordinates: a square is the smaller of the area's width and height divided by these.
    pub fn extent(layout: &Layout) -> (f32, f32) {
        let widest = layout.row_lengths().iter().copied().max().unwrap_or(1);
        (widest as f32 + 1.2, layout.rows() as f32 + 1.2)
    }

    /// The width an area `height` high needs for the board to be as large as that height
    /// allows.
    pub fn width_for(layout: &Layout, height: f32) -> f32 {
        let (wide, high) = Geometry::extent(layout);
        height.max(0.0) / high * wide
    }

    /// The square under a point.
    pub fn square_at(&self, pos: Pos2) -> Option<usize> {
        self.squares.iter().position(|r| r.contains(pos))
    }

    /// The centre of a square.
    pub fn centre(&self, sq: usize) -> Option<Pos2> {
        self.squares.get(sq).map(|r| r.center())
    }
}

/// What the board should show besides the pieces.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// The picked square.
    pub selected: Option<usize>,
    /// Where the picked piece may go.
    pub targets: Vec<usize>,
    /// The last move played.
    pub last: Option<Move>,
    /// An arrow from one square to another (the engine's best move).
    pub arrow: Option<(usize, usize)>,
    /// More arrows, best first (the first moves of several analysis lines), drawn thinner and
    /// paler down the list; drawn instead of `arrow` when there are any.
    pub lines: Vec<(usize, usize)>,
    /// The moves a human may play (from, to), for dragging: only these pieces can be picked
    /// up, and a dragged piece's targets are marked.
    pub legal: Vec<(usize, usize)>,
    /// A piece on its way: the piece on `slide.to` is drawn that far from `slide.from`.
    pub slide: Option<Slide>,
}

/// A piece drawn part of the way between two squares (a move's animation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slide {
    /// Where it comes from.
    pub from: usize,
    /// Where it stands in the position shown.
    pub to: usize,
    /// How far it has come, from 0 to 1.
    pub t: f32,
}

/// What the person did on the board this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardInput {
    /// Clicked (or pressed and released without moving) a square.
    Click(usize),
    /// Dragged a piece from one square and dropped it on another.
    Drag(usize, usize),
}

const LIGHT: Color32 = Color32::from_rgb(0xe8, 0xd5, 0xb0);
const DARK: Color32 = Color32::from_rgb(0xc2, 0x9a, 0x6b);
const OSKA: Color32 = Color32::from_rgb(0xd9, 0xbf, 0x8c);
const SELECTED: Color32 = Color32::from_rgb(0xf0, 0xc0, 0x20);
const LAST: Color32 = Color32::from_rgba_premultiplied(0x2a, 0x46, 0x1c, 0x70);
const TARGET: Color32 = Color32::from_rgba_premultiplied(0x18, 0x60, 0x18, 0xc0);
const ARROW: Color32 = Color32::from_rgba_premultiplied(0x10, 0x50, 0xb0, 0xc0);

/// The rectangle of a square without its gap (Oska's squares are drawn apart).
fn inner_rect(kind: GameKind, geo: &Geometry, sq: usize) -> Rect {
    if kind == GameKind::Oska {
        geo.squares[sq].shrink(geo.cell * 0.04)
    } else {
        geo.squares[sq]
    }
}

/// Paints one square's background.
fn paint_square(
    painter: &egui::Painter,
    kind: GameKind,
    layout: &Layout,
    geo: &Geometry,
    sq: usize,
) {
    let (r, c) = layout.coords(sq);
    let fill = match kind {
        GameKind::Oska => OSKA,
        _ if (r + c) % 2 == 0 => LIGHT,
        _ => DARK,
    };
    painter.rect_filled(
        inner_rect(kind, geo, sq),
        geo.cell * 0.08 * f32::from(kind == GameKind::Oska),
        fill,
    );
}

/// Paints an arrow from the centre of one square towards the centre of another.
fn paint_arrow(painter: &egui::Painter, geo: &Geometry, (from, to): (usize, usize)) {
    paint_line_arrow(painter, geo, (from, to), 0);
}

/// The width factor and opacity of the arrow of line `rank` (0 = the best).
pub fn line_style(rank: usize) -> (f32, f32) {
    let r = rank.min(4) as f32;
    (1.0 - 0.17 * r, 1.0 - 0.18 * r)
}

/// Paints the arrow of line `rank` (0 = the best): thinner and paler for worse lines.
fn paint_line_arrow(
    painter: &egui::Painter,
    geo: &Geometry,
    (from, to): (usize, usize),
    rank: usize,
) {
    if let (Some(a), Some(b)) = (geo.centre(from), geo.centre(to)) {
        let v = b - a;
        let start = a + v * 0.15;
        let (width, opacity) = line_style(rank);
        let stroke = Stroke::new(
            (geo.cell * 0.09 + 1.0) * width,
            ARROW.gamma_multiply(opacity),
        );
        painter.arrow(start, v * 0.75, stroke);
    }
}

/// Draws a small board of `width` points that reacts to nothing: the pieces given for every
/// square, and an optional arrow. For previews (tooltips).
pub fn preview(
    ui: &mut egui::Ui,
    kind: GameKind,
    layout: &Layout,
    pieces: &[Option<Piece>],
    arrow: Option<(usize, usize)>,
    width: f32,
) {
    let rows = layout.rows() as f32;
    let widest = layout.row_lengths().iter().copied().max().unwrap_or(1) as f32;
    let height = width * (rows + 1.2) / (widest + 1.2);
    let (area, _) = ui.allocate_exact_size(Vec2::new(width, height), Sense::hover());
    let geo = Geometry::new(layout, area, false);
    let painter = ui.painter_at(area);
    for sq in 0..layout.squares() {
        paint_square(&painter, kind, layout, &geo, sq);
        if let Some(Some(p)) = pieces.get(sq) {
            draw_piece(&painter, geo.squares[sq].center(), geo.cell, *p);
        }
    }
    if let Some(a) = arrow {
        paint_arrow(&painter, &geo, a);
    }
}

/// Draws the board filling the available space and reports a click or drag on a square. A piece
/// with a move in `marks.legal` can be dragged: it is drawn under the pointer, with its targets
/// marked, until it is dropped. Every square is also a widget labelled with its name
/// (`square c2`), for screen readers and tests. The returned [`Geometry`] also says what was
/// drawn moving (the dragged piece, the sliding one) and the targets marked.
pub fn show(
    ui: &mut egui::Ui,
    kind: GameKind,
    layout: &Layout,
    piece_at: &dyn Fn(usize) -> Option<Piece>,
    marks: &Marks,
    flipped: bool,
) -> (Geometry, Option<BoardInput>) {
    let area = ui.available_rect_before_wrap();
    let mut geo = Geometry::new(layout, area, flipped);
    let painter = ui.painter_at(area);
    let text = ui.visuals().text_color();
    let mut input = None;
    let drag_id = ui.scope_id().with("board-drag");
    // The square whose piece is being dragged (it is drawn under the pointer instead).
    let dragging: Option<usize> = ui
        .ctx()
        .data(|d| d.get_temp(drag_id))
        .filter(|_| ui.input(|i| i.pointer.any_down()));
    let targets: Vec<usize> = match dragging {
        Some(from) => marks
            .legal
            .iter()
            .filter(|(f, _)| *f == from)
            .map(|&(_, t)| t)
            .collect(),
        None => marks.targets.clone(),
    };
    for sq in 0..layout.squares() {
        let rect = geo.squares[sq];
        let (r, c) = layout.coords(sq);
        let inner = inner_rect(kind, &geo, sq);
        paint_square(&painter, kind, layout, &geo, sq);
        if let Some(m) = marks.last
            && !m.is_pass()
            && (usize::from(m.from) == sq || usize::from(m.to) == sq)
        {
            painter.rect_filled(inner, 0.0, LAST);
        }
        if marks.selected == Some(sq) {
            painter.rect_stroke(
                inner.shrink(1.5),
                0.0,
                Stroke::new(3.0, SELECTED),
                StrokeKind::Inside,
            );
        }
        let moving = dragging == Some(sq) || marks.slide.is_some_and(|s| s.to == sq);
        if let Some(p) = piece_at(sq)
            && !moving
        {
            draw_piece(&painter, rect.center(), geo.cell, p);
        }
        if targets.contains(&sq) {
            painter.circle_filled(rect.center(), geo.cell * 0.14, TARGET);
        }
        let id = ui.scope_id().with(("square", sq));
        let response = ui.interact(rect, id, Sense::click_and_drag());
        let name = layout.square_name(sq);
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Button, true, format!("square {name}"))
        });
        if response.clicked() {
            input = Some(BoardInput::Click(sq));
        }
        if response.drag_started() {
            // Only a piece that can move is picked up.
            if marks.legal.iter().any(|&(f, _)| f == sq) {
                ui.ctx().data_mut(|d| d.insert_temp(drag_id, sq));
            } else {
                ui.ctx().data_mut(|d| d.remove::<usize>(drag_id));
            }
        }
        if response.drag_stopped() {
            let from: Option<usize> = ui.ctx().data_mut(|d| d.remove_temp(drag_id));
            let to = ui
                .ctx()
                .pointer_interact_pos()
                .and_then(|p| geo.square_at(p));
            if let (Some(from), Some(to)) = (from, to) {
                input = Some(if from == to {
                    BoardInput::Click(from)
                } else {
                    BoardInput::Drag(from, to)
                });
            }
        }
        // Column letters: inside each square for Oska (every row has its own letters), under
        // the bottom row otherwise.
        let font = egui::FontId::proportional((geo.cell * 0.18).clamp(8.0, 18.0));
        if kind == GameKind::Oska {
            painter.text(
                inner.left_bottom() + Vec2::new(geo.cell * 0.06, -geo.cell * 0.04),
                egui::Align2::LEFT_BOTTOM,
                letter(c),
                font.clone(),
                Color32::from_gray(90),
            );
        } else if (!flipped && r + 1 == layout.rows()) || (flipped && r == 0) {
            painter.text(
                rect.center_bottom() + Vec2::new(0.0, geo.cell * 0.08),
                egui::Align2::CENTER_TOP,
                letter(c),
                font.clone(),
                text,
            );
        }
        // Row numbers left of each row's leftmost square on screen.
        let leftmost = if flipped { layout.row_len(r) - 1 } else { 0 };
        if c == leftmost {
            painter.text(
                rect.left_center() - Vec2::new(geo.cell * 0.12, 0.0),
                egui::Align2::RIGHT_CENTER,
                (r + 1).to_string(),
                egui::FontId::proportional((geo.cell * 0.25).clamp(8.0, 22.0)),
                text,
            );
        }
    }
    if marks.lines.is_empty()
        && let Some(a) = marks.arrow
    {
        paint_arrow(&painter, &geo, a);
    }
    // The worst line first, so that better lines are drawn over it.
    for (rank, line) in marks.lines.iter().enumerate().rev() {
        paint_line_arrow(&painter, &geo, *line, rank);
    }
    // Moving pieces last, above everything else.
    if let Some(s) = marks.slide
        && let (Some(a), Some(b), Some(p)) = (geo.centre(s.from), geo.centre(s.to), piece_at(s.to))
    {
        draw_piece(&painter, a.lerp(b, s.t.clamp(0.0, 1.0)), geo.cell, p);
        geo.slide = Some(s);
    }
    if let Some(from) = dragging
        && let (Some(pos), Some(p)) = (ui.ctx().pointer_latest_pos(), piece_at(from))
    {
        ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
        draw_piece(&painter, pos, geo.cell, p);
        geo.dragged = Some((from, pos));
    }
    geo.targets = targets;
    ui.allocate_rect(area, Sense::hover());
    (geo, input)
}

fn letter(c: usize) -> String {
    char::from(b'a' + (c as u8).min(25)).to_string()
}

fn draw_piece(painter: &egui::Painter, centre: Pos2, cell: f32, piece: Piece) {
    let (fill, edge) = match piece.side() {
        Side::White => (Color32::from_gray(250), Color32::from_gray(40)),
        Side::Black => (Color32::from_gray(30), Color32::from_gray(200)),
    };
    let radius = cell * 0.36;
    painter.circle(centre, radius, fill, Stroke::new(cell * 0.03 + 0.5, edge));
    if piece.is_flag() {
        // A pennant on a pole, in red, so that flags stand out from pawns at a glance.
        let pole_top = centre + Vec2::new(-radius * 0.35, -radius * 0.6);
        let pole_bottom = centre + Vec2::new(-radius * 0.35, radius * 0.6);
        painter.line_segment(
            [pole_top, pole_bottom],
            Stroke::new(cell * 0.04 + 0.5, edge),
        );
        let flag = vec![
            pole_top,
            pole_top + Vec2::new(radius * 0.9, radius * 0.3),
            pole_top + Vec2::new(0.0, radius * 0.6),
        ];
        painter.add(egui::Shape::convex_polygon(
            flag,
            Color32::from_rgb(0xd0, 0x20, 0x20),
            Stroke::new(1.0, edge),
        ));
    }
}
