//! Fuzz tests that stay (issue 14): the position parser, the move-list
//! parser and the `chaosclock.cfg` parser get random and mutated input from
//! `proptest`. Each input gives `Ok` or a typed error, never a panic, and an
//! error's message is one line without control characters. What parses is
//! a consistent, reachable-looking position that prints and parses back.
//!
//! Each property runs a fixed number of cases (about a second in a release
//! build); failures are not saved to disk, and proptest prints the smallest
//! failing input.

use chaosclock::{
    CfgError, Last, Move, MoveText, ParsePositionError, PassRule, Position, SUPPORTED_SLOTS,
    parse_cfg,
};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Cases per property.
const CASES: u32 = 2000;

/// The runner's configuration: [`CASES`] cases, nothing written to disk.
fn config() -> Config {
    Config { cases: CASES, failure_persistence: None, ..Config::default() }
}

/// Checks that an error message is one printable line.
fn one_line(message: &str) -> Result<(), TestCaseError> {
    prop_assert!(!message.is_empty(), "empty message");
    prop_assert!(!message.chars().any(char::is_control), "control character in {message:?}");
    Ok(())
}

/// Checks a parsed position: it prints and parses back, and passes the
/// reachability check the parsers apply.
fn sound(pos: &Position) -> Result<(), TestCaseError> {
    let text = pos.to_string();
    let back = text.parse::<Position>();
    prop_assert_eq!(back.as_ref(), Ok(pos), "{} reads back", text);
    prop_assert_eq!(pos.check_reachable(), Ok(()));
    Ok(())
}

/// Checks what the position parser makes of `text`.
fn check_position_text(text: &str) -> Result<(), TestCaseError> {
    match text.parse::<Position>() {
        Ok(pos) => sound(&pos),
        Err(e) => {
            let _: &ParsePositionError = &e;
            one_line(&e.to_string())
        }
    }
}

/// Checks what the cfg parser makes of `text`.
fn check_cfg_text(text: &str) -> Result<(), TestCaseError> {
    match parse_cfg(text) {
        Ok(pos) => sound(&pos),
        Err(e) => {
            let _: &CfgError = &e;
            one_line(&e.to_string())
        }
    }
}

/// Text near the interchange format: its characters, numbers of every size,
/// and some that do not belong (control characters, a BOM, CJK, a sign).
fn near_position() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => (0i64..=13).prop_map(|p| p.to_string()),
        1 => any::<i64>().prop_map(|p| p.to_string()),
        1 => "[0-9]{15,30}",
        1 => "[-+ ]?[0-9]{0,3}[ \t\n\r\u{0}\u{1b}\u{feff}甲x.]?",
    ];
    let board = prop::collection::vec(piece, 0..15).prop_map(|v| v.join(","));
    let side = prop_oneof!["", ";[01]", ";[-0-9 a\n]{0,3}"];
    let last = prop_oneof!["", ";-?[0-9]{1,2}", ";-[12]", ";[-0-9]{0,25}", ";;[0-9]"];
    (board, side, last).prop_map(|(b, s, l)| format!("{b}{s}{l}"))
}

/// A consistent position's text: a random board of a supported size
/// (pieces on their own slots, elsewhere or in hand), side and last.
fn position_text() -> impl Strategy<Value = String> {
    (0..SUPPORTED_SLOTS.len(), any::<u64>(), 0u8..2, -2i64..=12).prop_map(
        |(k, seed, side, last)| {
            let n = u64::from(SUPPORTED_SLOTS[k]);
            let mut state = seed | 1;
            let mut next = |below: u64| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state % below
            };
            let mut board: Vec<u64> = (1..=n).collect();
            for i in (1..board.len()).rev() {
                board.swap(i, next(i as u64 + 1) as usize);
            }
            for cell in board.iter_mut() {
                if next(3) == 0 {
                    *cell = 0;
                }
            }
            let board: Vec<String> = board.iter().map(u64::to_string).collect();
            format!("{};{side};{last}", board.join(","))
        },
    )
}

/// An edit of a text: insert, delete or replace one character.
#[derive(Debug, Clone)]
enum Edit {
    Insert(usize, char),
    Delete(usize),
    Replace(usize, char),
}

/// A few edits with characters from the formats and outside them.
fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let c = prop_oneof![
        4 => prop::sample::select(vec![
            '0', '1', '2', '9', ',', ';', '-', ' ', '=', '#', '\n', '\r', '\t', '\u{0}',
            '\u{feff}', '乙', 'e'
        ]),
        1 => any::<char>(),
    ];
    let edit = prop_oneof![
        (any::<usize>(), c.clone()).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), c).prop_map(|(i, c)| Edit::Replace(i, c)),
    ];
    prop::collection::vec(edit, 1..5)
}

/// `text` with `edits` applied (positions taken modulo the length).
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        match *edit {
            Edit::Insert(i, c) => chars.insert(i % (chars.len() + 1), c),
            Edit::Delete(_) | Edit::Replace(..) if chars.is_empty() => {}
            Edit::Delete(i) => {
                chars.remove(i % chars.len());
            }
            Edit::Replace(i, c) => {
                let at = i % chars.len();
                chars[at] = c;
            }
        }
    }
    chars.into_iter().collect()
}

/// A cfg text as the original program writes it for `pos` (not a double
/// pass, which the cfg cannot say), with keys that are not read around it.
fn cfg_of(pos: &Position) -> String {
    let n = pos.slots();
    let cell = |slot: u8| match pos.piece_at(slot) {
        None => "-1".to_string(),
        Some(p) if p == n => "0".to_string(),
        Some(p) => p.to_string(),
    };
    let board: Vec<String> = std::iter::once(n).chain(1..n).map(cell).collect();
    let last = match chaosclock::last_to_number(pos.last()) {
        0 => -2,
        -1 => -1,
        m if m == i64::from(n) => 0,
        m => m,
    };
    format!(
        "# chaosclock\nplayer-even=human\nboard={}\nside-to-move={}\nlast-move={last}\ndepth=9\n",
        board.join(", "),
        1 - pos.side().index()
    )
}

/// Lines of a cfg: the keys read and others, with values near the format.
fn near_cfg() -> impl Strategy<Value = String> {
    let key = prop::sample::select(vec![
        "board",
        "side-to-move",
        "last-move",
        "even-has-won",
        "odd-has-won",
        "depth",
        " board ",
        "",
        "#board",
    ]);
    let value = prop_oneof![
        "(-?[0-9]{1,2}, ?){3,12}-?[0-9]{1,2}",
        "-?[0-9]{1,3}",
        "[0-9]{19,25}",
        "[ -~\t\u{feff}乙]{0,12}",
    ];
    let line = (key, value, prop::bool::ANY)
        .prop_map(|(k, v, eq)| if eq { format!("{k}={v}") } else { format!("{k}{v}") });
    (prop::bool::ANY, prop::collection::vec(line, 0..8), prop::bool::ANY).prop_map(
        |(bom, lines, crlf)| {
            let text = lines.join(if crlf { "\r\n" } else { "\n" });
            if bom { format!("\u{feff}{text}") } else { text }
        },
    )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn position_parser_on_random_text(text in "\\PC{0,40}") {
        check_position_text(&text)?;
    }

    #[test]
    fn position_parser_on_near_text(text in near_position()) {
        check_position_text(&text)?;
    }

    #[test]
    fn position_parser_on_mutated_positions(text in position_text(), edits in edits()) {
        check_position_text(&text)?;
        check_position_text(&mutate(&text, &edits))?;
    }

    #[test]
    fn move_lists_parse_and_play_or_give_typed_errors(
        start in position_text(),
        list in prop::collection::vec(
            prop_oneof![
                4 => (0u16..=14).prop_map(|p| p.to_string()),
                1 => Just("pass".to_string()),
                1 => Just("PaSs".to_string()),
                1 => "[ -~\n\t\u{0}乙]{0,6}",
                1 => "[0-9]{3,25}",
            ],
            0..20,
        ),
        when_stuck in prop::bool::ANY,
    ) {
        let rule = if when_stuck { PassRule::WhenStuck } else { PassRule::Always };
        let Ok(mut pos) = start.parse::<Position>() else { return Ok(()) };
        // As `play --moves` splits its argument.
        for text in list.join(",").split(',') {
            let written = match text.parse::<MoveText>() {
                Ok(written) => written,
                Err(e) => {
                    one_line(&e.to_string())?;
                    continue;
                }
            };
            match pos.parse_move(written, rule) {
                Ok(m) => {
                    prop_assert_eq!(pos.check_move(m, rule), Ok(()));
                    pos = pos.play(m, rule).expect("a checked move plays");
                    sound(&pos)?;
                }
                Err(e) => one_line(&e.to_string())?,
            }
        }
    }

    /// A move read alone (`Move: FromStr`, `walk 3`, `place 4`, `pass`)
    /// and in a position (`Position::read_move`): what reads is legal there
    /// or a typed error of one line, and `{:#}` reads back.
    #[test]
    fn moves_read_alone_or_in_a_position(
        start in position_text(),
        text in prop_oneof![
            2 => "(walk|place|WALK|pass|PASS|Pass) ?[0-9]{0,4}",
            2 => (0u16..=14).prop_map(|p| p.to_string()),
            1 => "\\PC{0,12}",
        ],
        when_stuck in prop::bool::ANY,
    ) {
        let rule = if when_stuck { PassRule::WhenStuck } else { PassRule::Always };
        match text.parse::<Move>() {
            Ok(m) => prop_assert_eq!(format!("{m:#}").parse::<Move>(), Ok(m)),
            Err(e) => one_line(&e.to_string())?,
        }
        let Ok(pos) = start.parse::<Position>() else { return Ok(()) };
        match pos.read_move(&text, rule) {
            Ok(m) => prop_assert!(pos.legal_moves(rule).contains(m), "{} in {}", m, pos),
            Err(e) => one_line(&e.to_string())?,
        }
    }

    #[test]
    fn cfg_parser_on_random_text(text in "\\PC{0,80}") {
        check_cfg_text(&text)?;
    }

    #[test]
    fn cfg_parser_on_near_text(text in near_cfg()) {
        check_cfg_text(&text)?;
    }

    #[test]
    fn cfg_parser_on_mutated_files(text in position_text(), edits in edits()) {
        let Ok(pos) = text.parse::<Position>() else { return Ok(()) };
        // The cfg has no double pass.
        prop_assume!(pos.last() != Last::DoublePass);
        let cfg = cfg_of(&pos);
        prop_assert_eq!(parse_cfg(&cfg), Ok(pos), "{}", cfg);
        check_cfg_text(&mutate(&cfg, &edits))?;
    }
}
