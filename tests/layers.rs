//! The layers of `lib/src/` and `src/` have no import loops (issue 13).
//!
//! Every `src/**/*.rs` is read with its comments, string and character
//! literals and `#[cfg(test)] mod` blocks blanked out; each path that
//! starts with `crate::`, `chaosclock::` or `super::` (use trees with
//! braces included) is resolved to the module it names. A reference from
//! module `a::b` to `a::c` is an edge between the files of one folder
//! (`a/b` → `a/c`); one from `a::b` to `d::e` an edge between top-level
//! modules (`a` → `d`). A reference to an ancestor or a descendant is no
//! edge (a folder's `mod.rs` and its files may use each other). Items the
//! crate root re-exports (`crate::Position`) name no module and give no
//! edge. The test fails naming each loop, with the line behind each arrow.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module as its path from the crate root (`["table", "file"]`);
/// `lib.rs` and `main.rs` are `["lib"]` and `["main"]`.
type Module = Vec<String>;

/// Per edge (from, to), the first place that makes it: file and line.
type Edges = BTreeMap<(String, String), (PathBuf, usize)>;

#[test]
fn src_has_no_import_loops() {
    // The library (`lib/src`) and the binary on it (`src`), each a crate.
    for dir in ["lib/src", "src"] {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let loops = loops(&src);
        assert!(loops.is_empty(), "import loops in {dir}/:\n{}", loops.join("\n"));
    }
}

/// docs/architecture.md names every file of `lib/src/` and `src/` (but `lib.rs`,
/// `main.rs` and the `mod.rs` of folders it names) and of `scripts/`, so
/// the map keeps up with the code.
#[test]
fn the_architecture_names_every_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let mut files = Vec::new();
    let mut dirs = vec![root.join("lib/src"), root.join("src"), root.join("scripts")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    let missing: Vec<String> = files
        .iter()
        .filter(|f| {
            let name = f.file_name().unwrap().to_str().unwrap();
            !["lib.rs", "main.rs", "mod.rs"].contains(&name) && !map.contains(&format!("`{name}`"))
        })
        .map(|f| f.strip_prefix(root).unwrap().display().to_string())
        .collect();
    assert!(missing.is_empty(), "docs/architecture.md does not name: {missing:?}");
}

#[test]
fn a_loop_between_top_level_modules_is_found() {
    let dir = tree(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "use crate::b::Thing;\n"),
        ("b/mod.rs", "mod inner;\n"),
        ("b/inner.rs", "use crate::{a::Other, b};\n"),
    ]);
    let loops = loops(dir.path());
    assert_eq!(loops.len(), 1, "{loops:?}");
    assert!(loops[0].starts_with("a -> b -> a"), "{}", loops[0]);
    assert!(loops[0].contains("b/inner.rs:1"), "{}", loops[0]);
}

#[test]
fn a_loop_between_files_of_one_folder_is_found() {
    let dir = tree(&[
        ("lib.rs", "mod g;\n"),
        ("g/mod.rs", "mod x;\nmod y;\nuse x::X;\n"),
        ("g/x.rs", "use super::y::{self, Y};\nuse crate::g::Common;\n"),
        ("g/y.rs", "pub fn f() -> crate::g::x::X { todo!() }\n"),
    ]);
    let loops = loops(dir.path());
    assert_eq!(loops, vec!["g/x -> g/y -> g/x (g/x.rs:1, g/y.rs:1)".to_string()]);
}

#[test]
fn comments_literals_and_test_modules_make_no_edges() {
    let dir = tree(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "use crate::b::Thing;\n"),
        (
            "b.rs",
            "//! See [`crate::a`].\n\
             /* crate::a:: /* nested */ crate::a */\n\
             const S: &str = \"crate::a::X {\";\n\
             const R: &str = r#\"super::a\"#;\n\
             const C: char = '{'; fn f<'a>(x: &'a str) -> &'a str { x } // crate::a\n\
             #[cfg(test)]\nmod tests {\n    use crate::a::Y;\n    fn g() { let _ = \"}\"; }\n}\n",
        ),
    ]);
    assert_eq!(loops(dir.path()), Vec::<String>::new());
}

/// A temporary source tree with the given files.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a folder");
        std::fs::write(path, text).expect("the file is written");
    }
    dir
}

/// Every loop among the modules under `src`, one line each: the modules
/// around it, then the file and line behind each arrow.
fn loops(src: &Path) -> Vec<String> {
    let files = rust_files(src);
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(src, f)).collect();
    let mut edges = Edges::new();
    for file in &files {
        let from = module_of(src, file);
        let text = std::fs::read_to_string(file).expect("a source file is UTF-8");
        for (line, path) in references(&without_tests(&code_only(&text))) {
            let Some(to) = resolve(&from, &path, &modules) else { continue };
            if let Some(edge) = edge(&from, &to) {
                let at = file.strip_prefix(src).expect("under src").to_path_buf();
                edges.entry(edge).or_insert((at, line));
            }
        }
    }
    cycles(&edges)
}

/// The `.rs` files under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The module a file holds (`a/mod.rs` holds `a`).
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).expect("under src").with_extension("");
    let mut parts: Module = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.len() > 1 && parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// `text` with comments and the insides of string and character literals
/// replaced by spaces (line breaks kept, so lines keep their numbers).
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = c.clone();
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for ch in &mut out[from..to.min(c.len())] {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
    };
    let ident = |i: usize| i < c.len() && (c[i].is_alphanumeric() || c[i] == '_');
    let mut i = 0;
    while i < c.len() {
        let starts_word = i == 0 || !ident(i - 1);
        if c[i] == '/' && c.get(i + 1) == Some(&'/') {
            let end = c[i..].iter().position(|&x| x == '\n').map_or(c.len(), |k| i + k);
            blank(&mut out, i, end);
            i = end;
        } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            let (mut depth, mut j) = (1, i + 2);
            while j < c.len() && depth > 0 {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    (depth, j) = (depth + 1, j + 2);
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    (depth, j) = (depth - 1, j + 2);
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if c[i] == 'r' && starts_word && matches!(c.get(i + 1), Some('#' | '"')) {
            let hashes = c[i + 1..].iter().take_while(|&&x| x == '#').count();
            if c.get(i + 1 + hashes) != Some(&'"') {
                i += 1;
                continue;
            }
            let mut j = i + 2 + hashes;
            while j < c.len() && !(c[j] == '"' && c[j + 1..].iter().take(hashes).all(|&x| x == '#'))
            {
                j += 1;
            }
            blank(&mut out, i + 2 + hashes, j);
            i = j + 1 + hashes;
        } else if c[i] == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            blank(&mut out, i + 1, j);
            i = j + 1;
        } else if c[i] == '\'' && c.get(i + 1) == Some(&'\\') {
            let end = c[i + 2..].iter().position(|&x| x == '\'').map_or(c.len(), |k| i + 3 + k);
            blank(&mut out, i + 1, end - 1);
            i = end;
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            blank(&mut out, i + 1, i + 2);
            i += 3;
        } else {
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// `code` (from [`code_only`]) with every `#[cfg(test)] mod NAME { ... }`
/// blanked out.
fn without_tests(code: &str) -> String {
    let mut out: Vec<char> = code.chars().collect();
    let text = code.to_string();
    let mut from = 0;
    while let Some(k) = text[from..].find("#[cfg(test)]") {
        let at = from + k;
        from = at + 1;
        let rest = text[at + "#[cfg(test)]".len()..].trim_start();
        let Some(body) = rest.strip_prefix("mod ") else { continue };
        let Some(open) = body.find(['{', ';']) else { continue };
        if body.as_bytes()[open] == b';' {
            continue;
        }
        let start = text[..at].chars().count();
        let open = text.len() - body.len() + open;
        let mut depth = 0;
        let mut end = text.len();
        for (j, ch) in text[open..].char_indices() {
            depth += match ch {
                '{' => 1,
                '}' => -1,
                _ => 0,
            };
            if depth == 0 {
                end = open + j + 1;
                break;
            }
        }
        let stop = text[..end].chars().count();
        for ch in &mut out[start..stop] {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
    }
    out.into_iter().collect()
}

/// Every path that starts with `crate`, `chaosclock` or `super`, with its
/// line: `crate::a::{b, c::d}` gives `crate::a::b` and `crate::a::c::d`.
fn references(code: &str) -> Vec<(usize, Vec<String>)> {
    let c: Vec<char> = code.chars().collect();
    let ident = |i: usize| c[i].is_alphanumeric() || c[i] == '_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if ident(i) && (i == 0 || !(ident(i - 1) || c[i - 1] == '$' || c[i - 1] == ':')) {
            let word_end = (i..c.len()).find(|&j| !ident(j)).unwrap_or(c.len());
            let word: String = c[i..word_end].iter().collect();
            let path_follows = c[word_end..].iter().find(|x| !x.is_whitespace()) == Some(&':');
            if matches!(word.as_str(), "crate" | "chaosclock" | "super") && path_follows {
                let line = 1 + c[..i].iter().filter(|&&x| x == '\n').count();
                let (paths, end) = use_tree(&c, i);
                out.extend(paths.into_iter().map(|p| (line, p)));
                i = end.max(word_end);
                continue;
            }
            i = word_end;
        } else {
            i += 1;
        }
    }
    out
}

/// The paths of the use tree (or plain path) at `i`, and where it ends.
fn use_tree(c: &[char], mut i: usize) -> (Vec<Vec<String>>, usize) {
    let skip_ws = |mut i: usize| {
        while i < c.len() && c[i].is_whitespace() {
            i += 1;
        }
        i
    };
    i = skip_ws(i);
    if c.get(i) == Some(&'{') {
        let mut all = Vec::new();
        i += 1;
        loop {
            i = skip_ws(i);
            match c.get(i) {
                None => return (all, i),
                Some('}') => return (all, i + 1),
                Some(',') => i += 1,
                Some(_) => {
                    let (paths, end) = use_tree(c, i);
                    all.extend(paths);
                    // Past anything the tree does not read (`as name`).
                    i = (end..c.len()).find(|&j| matches!(c[j], ',' | '}')).unwrap_or(c.len());
                }
            }
        }
    }
    let start = i;
    while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
        i += 1;
    }
    if start == i {
        return (vec![Vec::new()], i);
    }
    let name: String = c[start..i].iter().collect();
    let after = skip_ws(i);
    if c.get(after) == Some(&':') && c.get(after + 1) == Some(&':') {
        let (tails, end) = use_tree(c, after + 2);
        let paths =
            tails.into_iter().map(|t| std::iter::once(name.clone()).chain(t).collect()).collect();
        (paths, end)
    } else {
        (vec![vec![name]], i)
    }
}

/// The module `path` (used in module `from`) names: its longest prefix
/// that is a module, after `super` and the crate's name are resolved;
/// `None` for an item of the crate root.
fn resolve(from: &Module, path: &[String], modules: &BTreeSet<Module>) -> Option<Module> {
    let mut base: Module = Vec::new();
    let mut rest = path;
    if rest.first().is_some_and(|p| p == "super") {
        base = from.clone();
        while rest.first().is_some_and(|p| p == "super") {
            base.pop();
            rest = &rest[1..];
        }
    } else {
        rest = &rest[1..]; // `crate` or `chaosclock`
    }
    let mut module = base.clone();
    let mut found = None;
    for part in rest {
        module.push(part.clone());
        if modules.contains(&module) {
            found = Some(module.clone());
        } else {
            break;
        }
    }
    found.or((!base.is_empty()).then_some(base))
}

/// The edge a reference from `from` to `to` makes: between the two
/// modules where their paths part; none if one is within the other.
fn edge(from: &Module, to: &Module) -> Option<(String, String)> {
    let i = from.iter().zip(to).take_while(|(a, b)| a == b).count();
    if i == from.len() || i == to.len() {
        return None;
    }
    Some((from[..=i].join("/"), to[..=i].join("/")))
}

/// Each loop of the graph, as `a -> b -> a (file:line, file:line)`.
fn cycles(edges: &Edges) -> Vec<String> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in edges.keys() {
        next.entry(a).or_default().push(b);
    }
    let reaches = |from: &str, to: &str| -> Option<Vec<String>> {
        // Breadth first, so the loop named is a shortest one.
        let mut seen = BTreeMap::from([(from.to_string(), String::new())]);
        let mut queue = std::collections::VecDeque::from([from.to_string()]);
        while let Some(v) = queue.pop_front() {
            for &w in next.get(v.as_str()).into_iter().flatten() {
                if w == to {
                    let mut path = vec![to.to_string(), v.clone()];
                    let mut at = v;
                    while at != from {
                        at = seen[&at].clone();
                        path.push(at.clone());
                    }
                    path.reverse();
                    return Some(path);
                }
                if !seen.contains_key(w) {
                    seen.insert(w.to_string(), v.clone());
                    queue.push_back(w.to_string());
                }
            }
        }
        None
    };
    let mut out = Vec::new();
    let mut in_a_loop: BTreeSet<String> = BTreeSet::new();
    for &start in next.keys() {
        if in_a_loop.contains(start) {
            continue;
        }
        if let Some(path) = reaches(start, start) {
            let places: Vec<String> = path
                .windows(2)
                .map(|w| {
                    let (file, line) = &edges[&(w[0].clone(), w[1].clone())];
                    format!("{}:{line}", file.display())
                })
                .collect();
            out.push(format!("{} ({})", path.join(" -> "), places.join(", ")));
            in_a_loop.extend(path);
        }
    }
    out
}
