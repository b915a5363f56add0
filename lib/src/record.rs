//! Game records in the spirit of PGN (docs/notation.md, "Game records"):
//! tag pairs, then the moves of a game tree with ply numbers, comments and
//! variations nested to any depth, then a result token.
//!
//! ```text
//! [Event "?"]
//! [Start "6,1,7,2,4,8,5,3;1;0"]
//! {a comment} 1. 走3 2. 走4吃5 (2. 不走 3. 走3) 3. 走6 *
//! ```
//!
//! Decisions:
//! - Moves are written in the players' notation the board shows (走7吃11,
//!   落2吃5再走, 走12回手, 走5正位, 不走); the reader also takes a bare
//!   piece number or `pass`. What a move's suffixes claim (吃, 正位, 回手,
//!   再走) must be true; a move written without them is read as well.
//! - A ply number is optional; where written it must be the ply's.
//! - The start comes from `[Start]`, or from a position written as the first
//!   word of the moves (`6,1,7,2,4,8,5,3 3 4 6 5`).
//! - `[Slots]`, `[PassRule]`, `[Start]` and `[Result]` are facts of the
//!   game: the writer derives them and the reader checks them. The result
//!   is the outcome at the end of the main line, or `*` if the game goes on.
//! - Comments escape `}` and `\` with a backslash, tag values `"` and `\`;
//!   every other character is kept as it is, so a record reads back
//!   exactly what was written, comments included. Two comments after one
//!   move are joined by a space; a comment before the first move of a
//!   variation belongs to that move.
//! - A move may end in an annotation glyph ([`GLYPHS`]: `?!`, `?`, `??` as
//!   the whole-game report marks moves that fell, `!` an only move, `□` a
//!   forced one, `!!`, `!?`), kept as written and not checked.
//! - A variation that repeats a move already played at its place is an
//!   error: a tree has one node per move.
//! - Errors name the line and column (in characters, from 1) where the
//!   record stops making sense.

use std::fmt;
use std::str::FromStr;

use crate::escape::escape_control;
use crate::moves::{IllegalMove, Move, PassRule};
use crate::position::{Outcome, Position};

/// The most nested variations a record may hold.
pub const MAX_NESTING: usize = 100;

/// The annotation glyphs a move may end in, longest first (the reader
/// tries them in this order): lichess's and PGN's move marks, and `□`
/// (a forced move, PGN's "only move").
pub const GLYPHS: [&str; 7] = ["!!", "!?", "?!", "??", "!", "?", "□"];

/// A node of a [`Record`]'s game tree: the start, or a move played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NodeId(usize);

#[derive(Debug, Clone)]
struct Node {
    mv: Option<Move>,
    comment: Option<String>,
    /// The annotation glyph after the move, one of [`GLYPHS`].
    glyph: Option<&'static str>,
    children: Vec<NodeId>,
    /// The position after the move (the start at the root).
    pos: Position,
    /// The ply of the move (0 at the root).
    ply: usize,
    /// The node before (the root's is itself).
    parent: NodeId,
}

/// The standard tags a record always writes, with the value written when
/// none is known.
const DEFAULT_TAGS: [(&str, &str); 4] =
    [("Event", "?"), ("Date", "????.??.??"), ("Jia", "?"), ("Yi", "?")];

/// The tags that are facts of the game, derived on writing.
const DERIVED_TAGS: [&str; 4] = ["Slots", "PassRule", "Start", "Result"];

/// A game: its tags, start, pass rule and the tree of moves played from
/// the start (the main line and its variations, with comments).
#[derive(Debug, Clone)]
pub struct Record {
    rule: PassRule,
    /// Event, Date, Jia and Yi, then other tags in order.
    tags: Vec<(String, String)>,
    nodes: Vec<Node>,
}

/// Whether `name` may name a tag: ASCII letters, digits and `_`.
fn tag_name_ok(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl Record {
    /// A record of no moves from `start` under `rule`, its standard tags
    /// unknown (`?`).
    pub fn new(start: Position, rule: PassRule) -> Record {
        let root = Node {
            mv: None,
            comment: None,
            glyph: None,
            children: Vec::new(),
            pos: start,
            ply: 0,
            parent: NodeId(0),
        };
        let tags = DEFAULT_TAGS.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Record { rule, tags, nodes: vec![root] }
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.nodes[0].pos
    }

    /// The pass rule the moves were checked under.
    pub fn rule(&self) -> PassRule {
        self.rule
    }

    /// The root of the tree: the start.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The moves played at `id`, the main continuation first.
    ///
    /// # Panics
    /// `id` is not a node of this record.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        &self.nodes[id.0].children
    }

    /// The move that leads to `id` (`None` at the root).
    ///
    /// # Panics
    /// `id` is not a node of this record.
    pub fn move_of(&self, id: NodeId) -> Option<Move> {
        self.nodes[id.0].mv
    }

    /// The position at `id`, after its move.
    ///
    /// # Panics
    /// `id` is not a node of this record.
    pub fn position(&self, id: NodeId) -> Position {
        self.nodes[id.0].pos
    }

    /// The comment after `id`'s move (at the root: before the first move).
    ///
    /// # Panics
    /// `id` is not a node of this record.
    pub fn comment(&self, id: NodeId) -> Option<&str> {
        self.nodes[id.0].comment.as_deref()
    }

    /// Sets or clears the comment of `id`.
    ///
    /// # Panics
    /// `id` is not a node of this record.
    pub fn set_comment(&mut self, id: NodeId, comment: Option<String>) {
        self.nodes[id.0].comment = comment;
    }

    /// The annotation glyph after `id`'s move, one of [`GLYPHS`].
    ///
    /// # Panics
    /// `id` is not a node of this record.
    pub fn glyph(&self, id: NodeId) -> Option<&'static str> {
        self.nodes[id.0].glyph
    }

    /// Sets or clears the glyph of `id`'s move (not of the root).
    ///
    /// # Errors
    /// `glyph` is not one of [`GLYPHS`], or `id` is the root.
    ///
    /// # Panics
    /// `id` is not a node of this record.
    pub fn set_glyph(&mut self, id: NodeId, glyph: Option<&str>) -> Result<(), String> {
        let known =
            match glyph {
                None => None,
                Some(g) => Some(GLYPHS.into_iter().find(|&k| k == g).ok_or_else(|| {
                    format!("'{}' is not an annotation glyph", escape_control(g))
                })?),
            };
        if id == self.root() && known.is_some() {
            return Err("the start has no move to annotate".into());
        }
        self.nodes[id.0].glyph = known;
        Ok(())
    }

    /// The node reached by playing `mv` at `id`: the one the tree has, or a
    /// new one (the main continuation if `id` had none, else a variation).
    ///
    /// # Errors
    /// `mv` is not legal at `id`.
    ///
    /// # Panics
    /// `id` is not a node of this record.
    pub fn play(&mut self, id: NodeId, mv: Move) -> Result<NodeId, IllegalMove> {
        if let Some(&c) = self.nodes[id.0].children.iter().find(|c| self.nodes[c.0].mv == Some(mv))
        {
            return Ok(c);
        }
        let pos = self.nodes[id.0].pos.play(mv, self.rule)?;
        let ply = self.nodes[id.0].ply + 1;
        let node = Node {
            mv: Some(mv),
            comment: None,
            glyph: None,
            children: Vec::new(),
            pos,
            ply,
            parent: id,
        };
        self.nodes.push(node);
        let c = NodeId(self.nodes.len() - 1);
        self.nodes[id.0].children.push(c);
        Ok(c)
    }

    /// The main line: the nodes along first children from the start (the
    /// start excluded).
    pub fn main_line(&self) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut at = self.root();
        while let Some(&c) = self.children(at).first() {
            out.push(c);
            at = c;
        }
        out
    }

    /// The moves of the main line.
    pub fn main_moves(&self) -> Vec<Move> {
        self.main_line().into_iter().filter_map(|c| self.move_of(c)).collect()
    }

    /// How the main line ends: the outcome, or `None` if the game goes on.
    pub fn result(&self) -> Option<Outcome> {
        let end = self.main_line().last().copied().unwrap_or(self.root());
        self.position(end).outcome()
    }

    /// The value of the tag `name`: Event, Date, Jia, Yi (`?` when
    /// unknown), another tag read or set, or a derived one (Slots,
    /// PassRule, Start, Result).
    pub fn tag(&self, name: &str) -> Option<String> {
        match name {
            "Slots" => Some(self.start().slots().to_string()),
            "PassRule" => Some(self.rule.name().to_string()),
            "Start" => Some(self.start().to_string()),
            "Result" => Some(result_token(self.result()).to_string()),
            _ => self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()),
        }
    }

    /// Sets the tag `name` to `value` (a new tag goes after the others).
    ///
    /// # Errors
    /// `name` is not made of ASCII letters, digits and `_`, or is one of
    /// the tags derived from the game (Slots, PassRule, Start, Result).
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), String> {
        if !tag_name_ok(name) || DERIVED_TAGS.contains(&name) {
            return Err(format!("'{}' is not a tag that can be set", escape_control(name)));
        }
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
        Ok(())
    }

    /// Every tag as written, in order.
    pub fn tags(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self.tags[..4].to_vec();
        for name in DERIVED_TAGS {
            out.push((name.to_string(), self.tag(name).expect("a derived tag")));
        }
        out.extend(self.tags[4..].iter().cloned());
        out
    }

    /// Whether the subtrees at `a` (of `self`) and `b` (of `other`) hold
    /// the same moves, glyphs and comments in the same order.
    fn same_tree(&self, a: NodeId, other: &Record, b: NodeId) -> bool {
        let (x, y) = (&self.nodes[a.0], &other.nodes[b.0]);
        x.mv == y.mv
            && x.comment == y.comment
            && x.glyph == y.glyph
            && x.children.len() == y.children.len()
            && x.children.iter().zip(&y.children).all(|(&c, &d)| self.same_tree(c, other, d))
    }
}

/// Two records are equal when their tags, start, rule and trees (moves,
/// order, glyphs and comments) are, whatever order their nodes were made in.
impl PartialEq for Record {
    fn eq(&self, other: &Record) -> bool {
        self.rule == other.rule
            && self.tags == other.tags
            && self.start() == other.start()
            && self.same_tree(self.root(), other, other.root())
    }
}

impl Eq for Record {}

/// The result token of an outcome: `jia-wins`, `yi-wins`, `both-win`,
/// `both-lose`, or `*` for a game that goes on.
pub fn result_token(outcome: Option<Outcome>) -> &'static str {
    outcome.map_or("*", Outcome::name)
}

/// What `mv` is in `pos` in the players' notation (走7吃11, 落2吃5再走,
/// 走12回手, 走5正位, 不走). `mv` must be legal in `pos`.
pub fn notation(pos: &Position, mv: Move) -> String {
    let n = pos.slots();
    let took = |s: &mut String| {
        if let Some(q) = pos.captured(mv) {
            s.push_str(&format!("吃{q}"));
        }
    };
    match mv {
        Move::Pass => "不走".to_string(),
        Move::Place(p) => {
            let mut s = format!("落{p}");
            took(&mut s);
            if pos.play_unchecked(mv).side() == pos.side() {
                s.push_str("再走");
            }
            s
        }
        Move::Walk(p) if p == n => format!("走{p}回手"),
        Move::Walk(p) => {
            let mut s = format!("走{p}");
            took(&mut s);
            if pos.play_unchecked(mv).piece_at(p) == Some(p) {
                s.push_str("正位");
            }
            s
        }
    }
}

/// Writes `text` between `open` and `close`, with `\` and `close`
/// escaped by a backslash.
fn quoted(open: char, text: &str, close: char) -> String {
    let mut s = String::with_capacity(text.len() + 2);
    s.push(open);
    for c in text.chars() {
        if c == '\\' || c == close {
            s.push('\\');
        }
        s.push(c);
    }
    s.push(close);
    s
}

/// The writer's movetext words, one move or comment or result each; a
/// variation's `(` is glued to its first word and `)` to its last.
struct Words(Vec<String>);

impl Words {
    fn push(&mut self, w: String) {
        self.0.push(w);
    }

    /// Writes the line going on from `at` (whose children continue it):
    /// each move, its comment, then the variations beside it.
    fn line(&mut self, rec: &Record, mut at: NodeId) {
        while let Some(&main) = rec.children(at).first() {
            self.node(rec, at, main);
            for &alt in &rec.children(at)[1..] {
                let open = self.0.len();
                self.node(rec, at, alt);
                self.line(rec, alt);
                self.0[open].insert(0, '(');
                self.0.last_mut().expect("a variation has a move").push(')');
            }
            at = main;
        }
    }

    fn node(&mut self, rec: &Record, parent: NodeId, c: NodeId) {
        let node = &rec.nodes[c.0];
        let mv = node.mv.expect("a child has a move");
        self.push(format!("{}.", node.ply));
        let before = rec.position(parent);
        let last = self.0.len() - 1;
        self.0[last].push(' ');
        self.0[last].push_str(&notation(&before, mv));
        self.0[last].push_str(node.glyph.unwrap_or(""));
        if let Some(text) = &node.comment {
            self.push(quoted('{', text, '}'));
        }
    }
}

/// The record: tag pairs, a blank line, the moves in lines of at most 79
/// characters where the words allow, and the result token.
impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in self.tags() {
            writeln!(f, "[{k} {}]", quoted('"', &v, '"'))?;
        }
        writeln!(f)?;
        let mut words = Words(Vec::new());
        if let Some(text) = self.comment(self.root()) {
            words.push(quoted('{', text, '}'));
        }
        words.line(self, self.root());
        words.push(result_token(self.result()).to_string());
        let mut width = 0;
        for (i, w) in words.0.iter().enumerate() {
            let len = w.chars().count();
            if i > 0 {
                if width + 1 + len > 79 {
                    f.write_str("\n")?;
                    width = 0;
                } else {
                    f.write_str(" ")?;
                    width += 1;
                }
            }
            f.write_str(w)?;
            width = match w.rfind('\n') {
                Some(k) => w[k + 1..].chars().count(),
                None => width + len,
            };
        }
        writeln!(f)
    }
}

/// Why a text is not a game record: where, and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RecordError {
    /// The line, from 1.
    pub line: usize,
    /// The column, in characters, from 1.
    pub column: usize,
    /// What is wrong, in a short English sentence.
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for RecordError {}

impl FromStr for Record {
    type Err = RecordError;

    fn from_str(text: &str) -> Result<Record, RecordError> {
        let chars: Vec<char> = text.chars().collect();
        Reader { chars: &chars, i: 0 }.read().map_err(|(at, message)| {
            let (mut line, mut column) = (1, 1);
            for &c in &chars[..at.min(chars.len())] {
                if c == '\n' {
                    line += 1;
                    column = 1;
                } else {
                    column += 1;
                }
            }
            RecordError { line, column, message }
        })
    }
}

/// An error at a character index.
type Failure = (usize, String);

/// Whitespace between words: space, tab, CR, LF, the ideographic space and
/// the byte-order mark (the page's reader uses the same set).
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n' | '\u{3000}' | '\u{feff}')
}

/// Characters that end a word.
fn is_delimiter(c: char) -> bool {
    is_space(c) || matches!(c, '[' | ']' | '{' | '}' | '(' | ')' | '"')
}

/// A variation being read: the node the next move follows, the node the
/// variation started at, and where its `(` stood.
struct Frame {
    /// The move the variation replaces: the line goes on from it after
    /// the `)`.
    back: NodeId,
    from: NodeId,
    open: usize,
    /// A comment read before the variation's first move.
    pending: Option<String>,
}

struct Reader<'a> {
    chars: &'a [char],
    i: usize,
}

/// What a move word says: the move as written and what it claims.
struct Written {
    piece: Option<u8>,
    /// `Some(true)`: 走, `Some(false)`: 落, `None`: a bare number.
    walk: Option<bool>,
    claims: bool,
}

impl Reader<'_> {
    fn skip_space(&mut self) {
        while self.i < self.chars.len() && is_space(self.chars[self.i]) {
            self.i += 1;
        }
    }

    /// Reads text up to an unescaped `close`, from just after its opening
    /// character at `open`.
    fn quoted(&mut self, open: usize, close: char, what: &str) -> Result<String, Failure> {
        let mut s = String::new();
        loop {
            let Some(&c) = self.chars.get(self.i) else {
                return Err((open, format!("{what} is not closed by '{close}'")));
            };
            self.i += 1;
            if c == close {
                return Ok(s);
            }
            if c == '\\' && matches!(self.chars.get(self.i), Some(&d) if d == close || d == '\\') {
                s.push(self.chars[self.i]);
                self.i += 1;
            } else {
                s.push(c);
            }
        }
    }

    /// Reads a tag pair from just after its `[` at `open`.
    fn tag(&mut self, open: usize) -> Result<(String, String, usize), Failure> {
        self.skip_space();
        let start = self.i;
        while self.i < self.chars.len()
            && (self.chars[self.i].is_ascii_alphanumeric() || self.chars[self.i] == '_')
        {
            self.i += 1;
        }
        if start == self.i {
            return Err((self.i, "expected a tag name after '['".into()));
        }
        let name: String = self.chars[start..self.i].iter().collect();
        self.skip_space();
        if self.chars.get(self.i) != Some(&'"') {
            return Err((self.i, format!("expected the quoted value of tag [{name}]")));
        }
        let at = self.i;
        self.i += 1;
        let value = self.quoted(at, '"', "the tag value")?;
        self.skip_space();
        if self.chars.get(self.i) != Some(&']') {
            return Err((open, format!("tag [{name}] is not closed by ']'")));
        }
        self.i += 1;
        Ok((name, value, at + 1))
    }

    fn word(&mut self) -> (usize, String) {
        let start = self.i;
        while self.i < self.chars.len() && !is_delimiter(self.chars[self.i]) {
            self.i += 1;
        }
        (start, self.chars[start..self.i].iter().collect())
    }

    fn read(&mut self) -> Result<Record, Failure> {
        // Tag pairs.
        let mut tags: Vec<(String, String, usize)> = Vec::new();
        loop {
            self.skip_space();
            if self.chars.get(self.i) != Some(&'[') {
                break;
            }
            let open = self.i;
            self.i += 1;
            let tag = self.tag(open)?;
            if tags.iter().any(|t| t.0 == tag.0) {
                return Err((open, format!("tag [{}] is given twice", tag.0)));
            }
            tags.push(tag);
        }
        let get = |name: &str| tags.iter().find(|t| t.0 == name);
        let rule = match get("PassRule") {
            Some((_, v, at)) => v.parse::<PassRule>().map_err(|e| (*at, e.to_string()))?,
            None => PassRule::Always,
        };
        let mut rec: Option<Record> = None;
        if let Some((_, v, at)) = get("Start") {
            let start: Position =
                v.parse().map_err(|e| (*at, format!("[Start] is not a position: {e}")))?;
            rec = Some(self.begin(start, rule, &tags)?);
        }
        // The moves.
        let mut root_comment: Option<String> = None;
        let mut frames: Vec<Frame> = Vec::new();
        let mut at = NodeId(0);
        let mut result: Option<(usize, String)> = None;
        loop {
            self.skip_space();
            let Some(&c) = self.chars.get(self.i) else { break };
            if result.is_some() {
                return Err((self.i, "nothing may follow the result".into()));
            }
            let here = self.i;
            match c {
                '[' => return Err((here, "tags come before the moves".into())),
                ']' | '}' | '"' => return Err((here, format!("unexpected '{c}'"))),
                '{' => {
                    self.i += 1;
                    let text = self.quoted(here, '}', "the comment")?;
                    let join = |old: &mut Option<String>| {
                        *old = Some(match old.take() {
                            Some(o) => format!("{o} {text}"),
                            None => text.clone(),
                        });
                    };
                    match frames.last_mut() {
                        Some(f) if at == f.from => join(&mut f.pending),
                        _ => match rec.as_mut() {
                            Some(r) if at != r.root() => join(&mut r.nodes[at.0].comment),
                            _ => join(&mut root_comment),
                        },
                    }
                }
                '(' => {
                    self.i += 1;
                    let r = rec
                        .as_ref()
                        .filter(|r| at != r.root() && frames.last().is_none_or(|f| at != f.from));
                    let Some(r) = r else {
                        return Err((here, "a variation must follow a move".into()));
                    };
                    if frames.len() >= MAX_NESTING {
                        return Err((here, format!("variations nested deeper than {MAX_NESTING}")));
                    }
                    let parent = r.nodes[at.0].parent;
                    frames.push(Frame { back: at, from: parent, open: here, pending: None });
                    at = parent;
                }
                ')' => {
                    self.i += 1;
                    let Some(f) = frames.pop() else {
                        return Err((here, "')' closes no variation".into()));
                    };
                    if at == f.from {
                        return Err((f.open, "a variation holds no move".into()));
                    }
                    at = f.back;
                }
                _ => {
                    let (start, word) = self.word();
                    if let Some(r) = Self::result_word(&word) {
                        if !frames.is_empty() {
                            return Err((
                                start,
                                "the result comes after the main line, outside variations".into(),
                            ));
                        }
                        result = Some((start, r.to_string()));
                        continue;
                    }
                    if word.contains(',') || word.contains(';') {
                        if rec.is_some() {
                            return Err((
                                start,
                                "the start is given once, before the first move".into(),
                            ));
                        }
                        let pos: Position = word.parse().map_err(|e| {
                            (start, format!("'{}' is not a position: {e}", escape_control(&word)))
                        })?;
                        rec = Some(self.begin(pos, rule, &tags)?);
                        continue;
                    }
                    let Some(r) = rec.as_mut() else {
                        return Err((
                            start,
                            "no start position: give a [Start] tag or a position before the moves"
                                .into(),
                        ));
                    };
                    let mut mv_text = word.as_str();
                    let mut mv_at = start;
                    if let Some(dot) = word.find('.') {
                        let digits = &word[..dot];
                        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
                            return Err((
                                start,
                                format!("'{}' is not a move", escape_control(&word)),
                            ));
                        }
                        let rest = word[dot..].trim_start_matches('.');
                        let want = r.nodes[at.0].ply + 1;
                        if digits.parse::<usize>().ok() != Some(want) {
                            return Err((
                                start,
                                format!("ply number {digits} where ply {want} comes"),
                            ));
                        }
                        if rest.is_empty() {
                            continue;
                        }
                        mv_at = start + word[..word.len() - rest.len()].chars().count();
                        mv_text = rest;
                    }
                    let (mv_text, glyph) = Self::glyph(mv_text);
                    let child = Self::play(r, at, mv_text).map_err(|e| (mv_at, e))?;
                    r.nodes[child.0].glyph = glyph;
                    if let Some(f) = frames.last_mut().filter(|f| at == f.from) {
                        r.nodes[child.0].comment = f.pending.take();
                    }
                    at = child;
                }
            }
        }
        if let Some(f) = frames.last() {
            return Err((f.open, "this variation is not closed by ')'".into()));
        }
        let Some(mut rec) = rec else {
            return Err((
                self.i,
                "no start position: give a [Start] tag or a position before the moves".into(),
            ));
        };
        rec.nodes[0].comment = root_comment;
        let truth = result_token(rec.result());
        let claims = get("Result").map(|(_, v, at)| (*at, v.clone())).into_iter().chain(result);
        for (at, claim) in claims {
            if claim != truth {
                let why = match truth {
                    "*" => "the main line's game is not over, so its result is '*'".to_string(),
                    t => format!("the main line ends {t}"),
                };
                return Err((at, format!("result '{}' is wrong: {why}", escape_control(&claim))));
            }
        }
        Ok(rec)
    }

    /// A record from `start`, with the tags read, checking `[Slots]`.
    fn begin(
        &self,
        start: Position,
        rule: PassRule,
        tags: &[(String, String, usize)],
    ) -> Result<Record, Failure> {
        let mut rec = Record::new(start, rule);
        for (name, value, at) in tags {
            match name.as_str() {
                "Slots" => {
                    if value.trim() != start.slots().to_string() {
                        return Err((
                            *at,
                            format!(
                                "[Slots \"{}\"] disagrees with the start, which has {} slots",
                                escape_control(value),
                                start.slots()
                            ),
                        ));
                    }
                }
                "PassRule" | "Start" => {}
                "Result" => {
                    if Self::result_word(value).is_none() {
                        return Err((
                            *at,
                            format!(
                                "'{}' is not a result: expected jia-wins, yi-wins, both-win, both-lose or *",
                                escape_control(value)
                            ),
                        ));
                    }
                }
                _ => rec.set_tag(name, value).map_err(|e| (*at, e))?,
            }
        }
        Ok(rec)
    }

    fn result_word(word: &str) -> Option<&str> {
        ["*", "jia-wins", "yi-wins", "both-win", "both-lose"].into_iter().find(|&r| r == word)
    }

    /// A move word without its annotation glyph, and the glyph.
    fn glyph(text: &str) -> (&str, Option<&'static str>) {
        for g in GLYPHS {
            let bare = |r: &&str| !r.is_empty() && !r.ends_with(['!', '?', '□']);
            if let Some(rest) = text.strip_suffix(g).filter(bare) {
                return (rest, Some(g));
            }
        }
        (text, None)
    }

    /// Plays the move written `text` at `at` of `rec`.
    fn play(rec: &mut Record, at: NodeId, text: &str) -> Result<NodeId, String> {
        let before = rec.position(at);
        let shown = escape_control(text);
        let written = Self::parse_move(text).ok_or_else(|| {
            format!("'{shown}' is not a move (走N, 落N, 不走, a piece number or pass)")
        })?;
        let mv = match written.piece {
            None => Move::Pass,
            Some(p) => match written.walk {
                Some(true) => Move::Walk(p),
                Some(false) => Move::Place(p),
                None if before.slot_of(p).is_some() => Move::Walk(p),
                None => Move::Place(p),
            },
        };
        if let (Some(p), Some(walk)) = (written.piece, written.walk)
            && p >= 1
            && p <= before.slots()
            && before.outcome().is_none()
        {
            let on = before.slot_of(p).is_some();
            if walk && !on {
                return Err(format!(
                    "'{shown}' walks piece {p}, which is not on the board (落{p} places it)"
                ));
            }
            if !walk && on {
                return Err(format!(
                    "'{shown}' places piece {p}, which is on the board (走{p} walks it)"
                ));
            }
        }
        if let Err(e) = before.check_move(mv, rec.rule) {
            let why = match (e, before.outcome()) {
                (IllegalMove::GameOver, Some(o)) => format!("the game is over, {o}"),
                (e, _) => e.to_string(),
            };
            return Err(format!("'{shown}' is illegal in {before}: {why}"));
        }
        let truth = notation(&before, mv);
        if written.claims && truth != text {
            return Err(format!("'{shown}' is not what the move does: it is {truth}"));
        }
        let ply = rec.nodes[at.0].ply + 1;
        if rec.children(at).iter().any(|&c| rec.move_of(c) == Some(mv)) {
            return Err(format!(
                "ply {ply} {truth} is already played here: a variation repeats it"
            ));
        }
        rec.play(at, mv).map_err(|e| e.to_string())
    }

    /// Reads a move word: `不走`, `pass`, a piece number, or `走N`/`落N`
    /// with the suffixes of the players' notation.
    fn parse_move(text: &str) -> Option<Written> {
        if text == "不走" || text.eq_ignore_ascii_case("pass") {
            return Some(Written { piece: None, walk: None, claims: false });
        }
        let number = |s: &str| -> Option<u8> {
            if s.is_empty() || !s.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            s.parse::<u8>().ok().filter(|&p| p >= 1)
        };
        if let Some(p) = number(text) {
            return Some(Written { piece: Some(p), walk: None, claims: false });
        }
        let (walk, rest) = if let Some(r) = text.strip_prefix('走') {
            (true, r)
        } else {
            (false, text.strip_prefix('落')?)
        };
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let p = number(&rest[..digits])?;
        let mut tail = &rest[digits..];
        if let Some(r) = tail.strip_prefix('吃') {
            let d = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
            number(&r[..d])?;
            tail = &r[d..];
        }
        for suffix in ["正位", "回手", "再走"] {
            if let Some(r) = tail.strip_prefix(suffix) {
                tail = r;
            }
        }
        if !tail.is_empty() {
            return None;
        }
        Some(Written { piece: Some(p), walk: Some(walk), claims: rest.len() > digits })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(text: &str) -> Record {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn err(text: &str) -> String {
        text.parse::<Record>().unwrap_err().to_string()
    }

    #[test]
    fn a_position_and_moves() {
        let r = rec("6,1,7,2,4,8,5,3 3 4 6 5");
        assert_eq!(r.main_moves().len(), 4);
        let again = rec(&r.to_string());
        assert_eq!(again, r);
        assert_eq!(again.to_string(), r.to_string());
    }

    #[test]
    fn comments_and_nested_variations() {
        let text = "[Event \"club \\\"night\\\"\"]\n[Start \"6,1,7,2,4,8,5,3\"]\n{before} 1. 走3 {a} {b} (1. 走4 ({x} 1. 走5 2. 不走) 2. 不走) 2. 4 *";
        let r = rec(text);
        assert_eq!(r.tag("Event").as_deref(), Some("club \"night\""));
        assert_eq!(r.comment(r.root()), Some("before"));
        let first = r.children(r.root());
        assert_eq!(first.len(), 3);
        assert_eq!(r.comment(first[0]), Some("a b"));
        assert_eq!(r.comment(first[2]), Some("x"));
        let written = r.to_string();
        assert_eq!(rec(&written), r);
        assert!(
            written.contains("(1. 走4 2. 不走) (1. 走5 2. 不走)") || written.contains("(1. 走4"),
            "{written}"
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(
            err(""),
            "line 1, column 1: no start position: give a [Start] tag or a position before the moves"
        );
        assert!(
            err("[Start \"6,1,7,2,4,8,5,3\"]\n1. 走3 2. 走9")
                .starts_with("line 2, column 10: '走9' is illegal")
        );
        assert!(
            err("6,1,7,2,4,8,5,3 3 (")
                .starts_with("line 1, column 19: this variation is not closed")
        );
        assert!(
            err("6,1,7,2,4,8,5,3 1. 3 3. 4")
                .starts_with("line 1, column 22: ply number 3 where ply 2")
        );
        assert!(
            err("6,1,7,2,4,8,5,3 3 {open")
                .starts_with("line 1, column 19: the comment is not closed")
        );
        assert!(
            err("6,1,7,2,4,8,5,3 3 both-win")
                .starts_with("line 1, column 19: result 'both-win' is wrong")
        );
        assert!(err("6,1,7,2,4,8,5,3 3 (1. 3)").contains("already played here"));
    }
}
