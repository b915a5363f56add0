//! `GET /api/check` (the board editor's check, docs/json.md "API
//! `/api/check`"): the facts of a position without a solve, the CLI's
//! message for a bad one as a 400, and hostile input answered with a
//! one-line JSON error, never a solve, a panic or a hang.

mod common;

use std::time::{Duration, Instant};

use common::server::{Server, esc};
use serde_json::json;

/// `show`'s error line for POS, without `error: `.
fn cli_error(pos: &str) -> String {
    let out = common::bin::run(&["show", "--", pos]);
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    assert!(!out.status.success(), "show {pos} succeeded");
    stderr.strip_prefix("error: ").unwrap_or(&stderr).to_string()
}

#[test]
fn check_answers_facts_and_the_clis_errors_without_solving() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &["--tables", "."]);
    let schema = common::schema::schema();
    let fields = &schema["API `/api/check`"];

    // A 12-slot opening: answered at once (no solve: it would take tens
    // of seconds), its facts as docs/json.md says.
    let t = Instant::now();
    let pos = "2,8,11,9,4,12,10,6,5,7,1,3";
    let a = server.ok(&format!("/api/check?pos={pos}"));
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    common::schema::check_object(&a, "", fields, "check");
    assert_eq!(a["position"], "2,8,11,9,4,12,10,6,5,7,1,3;1;0");
    assert_eq!(
        (a["slots"].clone(), a["side"].clone(), a["opening"].clone()),
        (json!(12), json!("yi"), json!(true))
    );
    assert_eq!((a["hand_jia"].clone(), a["hand_yi"].clone()), (json!([]), json!([])));
    let progress = server.ok("/api/progress");
    assert_eq!(progress["solves"], 0, "a check started a solve: {progress}");

    // Hands, the banned piece, passes, the end of a game, and a last
    // piece that restricts nothing reading as 0 (as `show` normalizes).
    for (pos, want) in [
        (
            "2,1,0,6,3,5;0;4",
            json!({"position": "2,1,0,6,3,5;0;0", "banned": null, "hand_yi": [4], "hand_jia": []}),
        ),
        ("0,0,3,4;0;-1", json!({"passes": 1, "hand_jia": [1], "hand_yi": [2], "side": "jia"})),
        ("0,2,4,3,0,5;1;3", json!({"banned": 3, "over": null, "opening": false})),
        ("1,2,3,4;1;0", json!({"over": "both-win"})),
        ("1,0,3,0;1;0", json!({"over": null, "hand_yi": [2, 4]})),
        ("0,0,0,0,0,0,0,0;1;0", json!({"hand_jia": [1, 3, 5, 7], "hand_yi": [2, 4, 6, 8]})),
    ] {
        let a = server.ok(&format!("/api/check?pos={}", esc(pos)));
        common::schema::check_object(&a, "", fields, pos);
        for (k, v) in want.as_object().unwrap() {
            assert_eq!(&a[k], v, "{pos} {k}: {a}");
        }
        // The normalized position is what `show` prints.
        let shown = common::bin::ok(&["show", pos]);
        let line = shown.lines().find(|l| l.starts_with("position:")).unwrap();
        assert_eq!(line.trim_start_matches("position:").trim(), a["position"], "{pos}");
    }

    // Impossible positions: the CLI's message, one line, status 400.
    for pos in [
        "2,1,4,6,3,5;0;4",
        "2,1,4,6,3,5;0;6",
        "1,2,3,4;1;-2",
        "1,1",
        "2,1,4,6,3,99",
        "2,1,4,3;2;0",
        "2,1,4,3;0;9",
        "",
        " ",
        "-1,2,3,4",
        "99999999999999999999999,1,2,3",
        "1,2,3,4;1;0;0",
    ] {
        let path = format!("/api/check?pos={}", esc(pos));
        let (status, body) = server.json(&path);
        assert_eq!(status, 400, "{path}: {body}");
        let msg = body["error"].as_str().unwrap();
        assert!(!msg.contains('\n'), "{msg:?}");
        if !pos.trim().is_empty() {
            assert_eq!(msg, cli_error(pos), "{pos}");
        }
    }
    // 1,500 entries, control characters, bad escapes, text that is not
    // UTF-8, parameters missing, unknown, repeated or a cfg instead.
    let long = vec!["1"; 1500].join(",");
    for (path, want) in [
        (format!("/api/check?pos={long}"), "not 1500"),
        ("/api/check?pos=2,1,%07,3".to_string(), "\\u{7}"),
        ("/api/check?pos=2,1,4,3%".to_string(), "escape"),
        ("/api/check?pos=%FF%FE".to_string(), "UTF-8"),
        ("/api/check".to_string(), "missing parameter 'pos'"),
        ("/api/check?pos=2,1,4,3&pos=2,1,4,3".to_string(), "pos"),
        ("/api/check?pos=2,1,4,3&moves=2".to_string(), "moves"),
        ("/api/check?cfg=x".to_string(), "cfg"),
    ] {
        let (status, body) = server.json(&path);
        assert_eq!(status, 400, "{path}: {body}");
        let msg = body["error"].as_str().unwrap();
        assert!(msg.contains(want), "{path}: {msg:?} lacks {want:?}");
        assert!(!msg.contains('\n') && msg.len() < path.len() + 200, "{msg:?}");
    }
    // Too long a target: 414, as every endpoint.
    let (status, _) = server.json(&format!("/api/check?pos={}", "1,".repeat(2100)));
    assert_eq!(status, 414);
    // A foreign page may not ask either (403), and the server still answers.
    let req = format!(
        "GET /api/check?pos=2,1,4,3 HTTP/1.1\r\nHost: {}\r\nOrigin: http://evil.example\r\nConnection: close\r\n\r\n",
        server.addr
    );
    assert_eq!(server.raw_json(req.as_bytes()).0, 403);
    assert_eq!(server.ok("/api/check?pos=2,1,4,3")["position"], "2,1,4,3;1;0");
    assert_eq!(server.ok("/api/progress")["solves"], 0);
}
