//! Runs every ```` ```console ```` example of `README.md`, `docs/*.md` and
//! `tables/README.md`, and compares what it prints with the text shown, so
//! the examples cannot drift from the tool.
//!
//! How an example is read:
//! - A line starting with `$ ` is a command; the lines after it, up to the
//!   next command or the end of the block, are what it prints (stdout and
//!   stderr together, as a terminal shows them). Blocks in ```` ```sh ````
//!   or ```` ```text ```` are not run.
//! - Each file gets one fresh temporary directory, and its blocks run in
//!   order in it, so a doc can make small tables once and use them further
//!   down. `./tables` exists only if an example made it, and no tracked
//!   file can be overwritten.
//! - A command runs in `sh -c` with the directory of the built binary first
//!   in `PATH`, so `chaosclock` is the binary under test, pipes and
//!   redirections work, and `$?` is the exit code of the previous command
//!   (`$ echo $?` shows it).
//! - `$ curl -s 'http://127.0.0.1:8080/PATH'` is answered by a
//!   `chaosclock serve` that the harness starts in the same directory on a
//!   free loopback port (the first time a file needs one); its body is the
//!   output.
//! - Wildcards, as in trycmd: `[..]` inside a line matches any text on that
//!   line, and a line `...` matches any number of lines (none included).
//!   Use them only for what varies from run to run: times, rates, memory.
//!   Trailing spaces are ignored.
//!
//! It also checks that every relative link of those files, and of the
//! research notes in `docs/notes/`, points at a file that exists, and every
//! `#anchor` at a heading of its file.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::server::Server;

/// A command of an example and the output shown for it.
#[derive(Debug)]
struct Example {
    /// The 1-based line of the command in its file.
    line: usize,
    /// The command, without `$ `.
    command: String,
    /// The lines shown after it.
    expected: Vec<String>,
}

/// The markdown files whose examples run, relative to the crate root.
fn doc_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md"), root.join("tables/README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ can be listed")
        .map(|e| e.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The markdown files whose links are checked: those of [`doc_files`] and
/// the research notes of `docs/notes/` (whose examples are not run).
fn linked_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut notes: Vec<PathBuf> = std::fs::read_dir(root.join("docs/notes"))
        .expect("docs/notes/ can be listed")
        .map(|e| e.expect("a docs/notes/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    notes.sort();
    let mut files = doc_files();
    files.extend(notes);
    files
}

/// The commands of every ```` ```console ```` block of `text`, in order.
///
/// # Panics
/// If a block is not closed, or shows output before its first command.
fn examples(name: &str, text: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_block = false;
    let mut block_start = 0;
    let mut first_of_block = 0;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if !in_block {
            if trimmed.starts_with("```console") {
                in_block = true;
                block_start = i + 1;
                first_of_block = out.len();
            }
            continue;
        }
        if trimmed.starts_with("```") {
            assert!(
                out.len() > first_of_block,
                "{name}:{block_start}: a console block without a command"
            );
            in_block = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            out.push(Example { line: i + 1, command: command.to_string(), expected: Vec::new() });
        } else {
            assert!(
                out.len() > first_of_block,
                "{name}:{}: output before the first `$ ` command",
                i + 1
            );
            out.last_mut().expect("a command").expected.push(line.to_string());
        }
    }
    assert!(!in_block, "{name}:{block_start}: a console block that is not closed");
    out
}

/// Whether one line matches its expected text, where `[..]` matches any
/// text. Trailing spaces are ignored on both.
fn line_matches(want: &str, got: &str) -> bool {
    let (want, got) = (want.trim_end(), got.trim_end());
    let parts: Vec<&str> = want.split("[..]").collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if parts.len() == 1 {
        return want == got;
    }
    if got.len() < first.len() + last.len() || !got.starts_with(first) || !got.ends_with(last) {
        return false;
    }
    let mut rest = &got[first.len()..got.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether the lines match their expected text, where a line `...`
/// matches any number of lines.
fn lines_match(want: &[String], got: &[&str]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((w, rest)) if w.trim() == "..." => {
            (0..=got.len()).any(|i| lines_match(rest, &got[i..]))
        }
        Some((w, rest)) => {
            got.first().is_some_and(|g| line_matches(w, g)) && lines_match(rest, &got[1..])
        }
    }
}

/// The directory of a file's examples, with its server once one is needed.
struct Sandbox {
    dir: tempfile::TempDir,
    server: Option<Server>,
    /// The exit code of the previous command.
    status: i32,
}

impl Sandbox {
    fn new() -> Sandbox {
        Sandbox {
            dir: tempfile::tempdir().expect("a temporary directory"),
            server: None,
            status: 0,
        }
    }

    /// Runs `command` and returns what it printed.
    fn run(&mut self, command: &str) -> String {
        if let Some(path) = curl_path(command) {
            let dir = self.dir.path();
            let server = self.server.get_or_insert_with(|| Server::start(dir, &[]));
            return server.get(path).1;
        }
        let bin_dir =
            Path::new(env!("CARGO_BIN_EXE_chaosclock")).parent().expect("the binary's directory");
        let path = std::env::join_paths(
            std::iter::once(bin_dir.to_path_buf())
                .chain(std::env::var_os("PATH").iter().flat_map(std::env::split_paths)),
        )
        .expect("a PATH");
        let script = format!("exec 2>&1\n(exit {})\n{command}", self.status);
        let out = Command::new("sh")
            .args(["-c", &script])
            .current_dir(self.dir.path())
            .env("PATH", path)
            // No progress lines, however loaded the machine (src/cmd/progress.rs).
            .env("CHAOSCLOCK_PROGRESS_SECS", "0")
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .expect("sh runs");
        self.status = out.status.code().unwrap_or(-1);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

/// The path of `curl -s 'http://127.0.0.1:8080/PATH'`, if `command` is one.
fn curl_path(command: &str) -> Option<&str> {
    let url = command.strip_prefix("curl -s '")?.strip_suffix('\'')?;
    url.strip_prefix("http://127.0.0.1:8080")
}

/// Where the output first differs, as far as the lines before any `...`
/// tell; empty if they do not.
fn first_difference(want: &[String], got: &[&str]) -> String {
    for (i, w) in want.iter().enumerate() {
        if w.trim() == "..." {
            return String::new();
        }
        match got.get(i) {
            Some(g) if line_matches(w, g) => {}
            Some(g) => {
                return format!(
                    "first difference, line {}:\n  shown   {w:?}\n  printed {g:?}\n",
                    i + 1
                );
            }
            None => return format!("the output ends before line {}: {w:?}\n", i + 1),
        }
    }
    match got.get(want.len()) {
        Some(g) => format!("more output from line {}: {g:?}\n", want.len() + 1),
        None => String::new(),
    }
}

/// Runs the examples of one file; a message per example that differs.
fn check_file(name: &str, examples: &[Example]) -> Vec<String> {
    let mut sandbox = Sandbox::new();
    let mut failures = Vec::new();
    for ex in examples {
        let got = sandbox.run(&ex.command);
        let got_lines: Vec<&str> = got.lines().collect();
        if !lines_match(&ex.expected, &got_lines) {
            failures.push(format!(
                "{name}:{}: `{}` printed something else\n{}--- shown in the doc\n{}\n--- printed\n{}",
                ex.line,
                ex.command,
                first_difference(&ex.expected, &got_lines),
                ex.expected.join("\n"),
                got.trim_end()
            ));
        }
    }
    failures
}

#[test]
fn every_console_example_prints_what_the_doc_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut failures = Vec::new();
    let mut count = 0;
    for file in doc_files() {
        let name = file.strip_prefix(root).expect("under the crate root").display().to_string();
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        let examples = examples(&name, &text);
        count += examples.len();
        failures.extend(check_file(&name, &examples));
    }
    assert!(count > 0, "no console example found");
    assert!(
        failures.is_empty(),
        "{} of {count} examples differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!("{count} examples checked");
}

/// The GitHub anchor of a heading: lower case, punctuation dropped, spaces
/// as hyphens.
fn anchor_of(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of every heading of a markdown text (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.push(anchor_of(line.trim_start_matches('#')));
        }
    }
    out
}

/// The targets of the inline links `[text](target)` of a markdown text,
/// outside code blocks, with their line numbers.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_code = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                out.push((i + 1, rest[..end].to_string()));
                rest = &rest[end..];
            }
        }
    }
    out
}

#[test]
fn links_point_at_files_and_headings_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    for file in linked_files() {
        let name = file.strip_prefix(root).expect("under the crate root").display().to_string();
        let text = std::fs::read_to_string(&file).expect("the doc is readable");
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let dest = if path.is_empty() {
                file.clone()
            } else {
                file.parent().expect("a directory").join(path)
            };
            if !dest.exists() {
                broken.push(format!("{name}:{line}: {target}: no such file"));
            } else if !anchor.is_empty() {
                let dest_text = std::fs::read_to_string(&dest).unwrap_or_default();
                if !anchors(&dest_text).iter().any(|a| a == anchor) {
                    broken.push(format!("{name}:{line}: {target}: no such heading"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_are_those_github_makes() {
    assert_eq!(
        anchor_of(" `solve --tables`: solve with the tables' help"),
        "solve---tables-solve-with-the-tables-help"
    );
    assert_eq!(anchor_of(" The pass rule `when-stuck`"), "the-pass-rule-when-stuck");
    assert_eq!(
        links("see [a](b.md#c) and [d](#e)\n```\n[x](y)\n```"),
        [(1, "b.md#c".into()), (1, "#e".into())]
    );
}

#[test]
fn the_readme_shows_every_command() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let commands: Vec<String> =
        examples("README.md", &text).into_iter().map(|e| e.command).collect();
    for cmd in ["show", "play", "solve", "generate", "query", "verify", "openings"] {
        let shown = commands.iter().any(|c| c.starts_with(&format!("chaosclock {cmd} ")));
        assert!(shown, "README.md has no tested example of `chaosclock {cmd}`");
    }
}

#[test]
fn wildcards_match_only_what_they_should() {
    let lines = |s: &str| s.lines().map(String::from).collect::<Vec<_>>();
    assert!(line_matches("time: [..] s", "time: 0.4 s"));
    assert!(line_matches("a [..] b [..] c", "a 1 b 2 c"));
    assert!(line_matches("[..]", ""));
    assert!(line_matches("x  ", "x"));
    assert!(!line_matches("time: [..] s", "time: 0.4 ms!"));
    assert!(!line_matches("ab[..]ba", "aba"));
    assert!(!line_matches("value: 3", "value: 4"));
    assert!(lines_match(&lines("a\n...\nd"), &["a", "b", "c", "d"]));
    assert!(lines_match(&lines("a\n...\nd"), &["a", "d"]));
    assert!(lines_match(&lines("...\n"), &[]));
    assert!(!lines_match(&lines("a\n...\nd"), &["a", "b"]));
    assert!(!lines_match(&lines("a\nb"), &["a", "b", "c"]));
    assert!(!lines_match(&lines("a\nb\nc"), &["a", "b"]));
}

#[test]
fn blocks_are_read_command_by_command() {
    let doc =
        "text\n```console\n$ chaosclock a\none\n\ntwo\n$ echo $?\n0\n```\n```sh\n$ not run\n```\n";
    let ex = examples("doc", doc);
    assert_eq!(ex.len(), 2);
    assert_eq!((ex[0].line, ex[0].command.as_str()), (3, "chaosclock a"));
    assert_eq!(ex[0].expected, ["one", "", "two"]);
    assert_eq!(ex[1].expected, ["0"]);
}

#[test]
fn a_changed_output_is_caught() {
    let doc = "```console\n$ chaosclock play 2,1,4,3 --moves 2\n  0  start                    2,1,4,3;1;0\n  1  乙 walk 2 takes 3        0,1,2,4;0;2\n```\n";
    let failures = check_file("doc", &examples("doc", doc));
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(failures[0].contains("printed something else"));
    let right = "```console\n$ chaosclock play 2,1,4,3 --moves 2 | head -1\n  0  start[..]2,1,4,3;1;0\n$ chaosclock play 2,1,4,3 --moves 2,2 > /dev/null\nerror: move 2 '2' is illegal in [..]\n$ echo $?\n2\n```\n";
    let failures = check_file("doc", &examples("doc", right));
    assert!(failures.is_empty(), "{failures:?}");
}
