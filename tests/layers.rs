//! The layers of `lib/src/` and `src/` have no import loops (issues 13
//! and 60).
//!
//! Every `src/**/*.rs` is read with its comments, string and character
//! literals and `#[cfg(test)] mod` blocks blanked out; each path that
//! starts with `crate::`, `chaosclock::`, `super::` or `self::` (use trees
//! with braces included), and in a folder's `mod.rs` each path that starts
//! with one of its child modules, is resolved to the module it names. A
//! path through a re-export (`pub use`, `pub(crate) use`, in any file) is
//! followed to the module the item comes from. An item defined in a
//! folder's `mod.rs` belongs to the node `folder/mod`, and a reference
//! from that `mod.rs` is an edge from `folder/mod`: so a file that uses its
//! `mod.rs` while the `mod.rs` uses it is a loop. A reference from module
//! `a::b` to `a::c` is an edge between the files of one folder (`a/b` →
//! `a/c`); one from `a::b` to `d::e` an edge between top-level modules
//! (`a` → `d`). A reference to a module that contains the other (a folder
//! as a whole, not an item of its `mod.rs`) is no edge. The test fails
//! naming each loop, with the line behind each arrow.

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
        ("g/x.rs", "use super::y::{self, Y};\nuse crate::g;\n"),
        ("g/y.rs", "pub fn f() -> crate::g::x::X { todo!() }\n"),
    ]);
    let loops = loops(dir.path());
    assert_eq!(loops, vec!["g/x -> g/y -> g/x (g/x.rs:1, g/y.rs:1)".to_string()]);
}

/// The loops of issue 60: a file and the folder's `mod.rs` that
/// re-exports it, and a file that uses an item of its `mod.rs` while the
/// `mod.rs` uses the file.
#[test]
fn loops_through_a_mod_rs_are_found() {
    let dir = tree(&[
        ("lib.rs", "mod t;\nmod g;\n"),
        (
            "t/mod.rs",
            "mod base;\nmod derive;\npub(crate) use derive::rederive;\npub use base::Base;\n",
        ),
        ("t/base.rs", "use crate::t::rederive;\npub struct Base;\n"),
        ("t/derive.rs", "use crate::t::Base;\npub fn rederive() {}\n"),
        ("g/mod.rs", "mod recode;\npub struct Config;\npub fn run() { recode::go() }\n"),
        ("g/recode.rs", "use super::Config;\npub fn go() {}\n"),
    ]);
    let loops = loops(dir.path());
    assert_eq!(loops.len(), 2, "{loops:?}");
    assert!(loops.iter().any(|l| l.starts_with("t/base -> t/derive -> t/base")), "{loops:?}");
    assert!(loops.iter().any(|l| l.starts_with("g/mod -> g/recode -> g/mod")), "{loops:?}");
}

/// A folder whose `mod.rs` only declares and re-exports, and whose files
/// use each other through it in one direction, has no loop.
#[test]
fn reexports_followed_one_way_are_no_loop() {
    let dir = tree(&[
        ("lib.rs", "mod t;\nmod u;\npub use crate::t::Top;\n"),
        ("t/mod.rs", "mod a;\nmod b;\npub use a::Top;\npub use b::Low;\n"),
        ("t/a.rs", "use crate::t::Low;\npub struct Top;\n"),
        ("t/b.rs", "use super::{self};\npub struct Low;\n"),
        ("u.rs", "use crate::Top;\n"),
    ]);
    assert_eq!(loops(dir.path()), Vec::<String>::new());
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
    let folders: BTreeSet<Module> =
        files.iter().filter(|f| f.ends_with("mod.rs")).map(|f| module_of(src, f)).collect();
    let code: Vec<(PathBuf, String)> = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).expect("a source file is UTF-8");
            (f.clone(), without_tests(&code_only(&text)))
        })
        .collect();
    let mut graph = Graph { modules, folders, reexports: BTreeMap::new() };
    for (file, code) in &code {
        let module = module_of(src, file);
        let key = if module == ["lib"] || module == ["main"] { Vec::new() } else { module.clone() };
        for (_, path) in reexports(code, &graph.children(&module)) {
            let Some(abs) = graph.absolute(&module, &path) else { continue };
            if let Some(name) = abs.last().filter(|n| *n != "self") {
                graph.reexports.insert((key.clone(), name.clone()), abs);
            }
        }
    }
    let mut edges = Edges::new();
    for (file, code) in &code {
        let module = module_of(src, file);
        let node = if graph.folders.contains(&module) && file.ends_with("mod.rs") {
            [module.clone(), vec!["mod".to_string()]].concat()
        } else {
            module.clone()
        };
        for (line, path) in references(code, &graph.children(&module)) {
            let Some(to) = graph.absolute(&module, &path).and_then(|abs| graph.resolve(&abs, 0))
            else {
                continue;
            };
            if let Some(edge) = edge(&node, &to) {
                let at = file.strip_prefix(src).expect("under src").to_path_buf();
                edges.entry(edge).or_insert((at, line));
            }
        }
    }
    cycles(&edges)
}

/// The modules of a crate and what its files re-export.
struct Graph {
    modules: BTreeSet<Module>,
    /// The modules that are folders (with a `mod.rs`).
    folders: BTreeSet<Module>,
    /// Per module (the crate root as `[]`) and name, the absolute path
    /// (from the crate root) of the item it re-exports under that name.
    reexports: BTreeMap<(Module, String), Vec<String>>,
}

impl Graph {
    /// The names of the child modules of `module` (of a folder).
    fn children(&self, module: &Module) -> BTreeSet<String> {
        let parent: &[String] =
            if *module == ["lib"] || *module == ["main"] { &[] } else { module };
        self.modules
            .iter()
            .filter(|m| m.len() == parent.len() + 1 && m.starts_with(parent))
            .filter_map(|m| m.last().cloned())
            .filter(|m| m != "lib" && m != "main")
            .collect()
    }

    /// `path` (used in `from`) as a path from the crate root: `crate` and
    /// the crate's name dropped, `super` and `self` resolved, a child
    /// module's name put under `from`.
    fn absolute(&self, from: &Module, path: &[String]) -> Option<Vec<String>> {
        let here: Module =
            if *from == ["lib"] || *from == ["main"] { Vec::new() } else { from.clone() };
        let first = path.first()?;
        Some(match first.as_str() {
            "crate" | "chaosclock" => path[1..].to_vec(),
            "self" => [here, path[1..].to_vec()].concat(),
            "super" => {
                let mut base = here;
                let mut rest = path;
                while rest.first().is_some_and(|p| p == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
                [base, rest.to_vec()].concat()
            }
            _ => [here, path.to_vec()].concat(),
        })
    }

    /// The node an absolute path names: its longest prefix that is a
    /// module, through re-exports; an item of a folder's `mod.rs` is the
    /// node `folder/mod`. `None` for an item of the crate root.
    fn resolve(&self, abs: &[String], depth: usize) -> Option<Module> {
        let mut k = 0;
        while k < abs.len() && self.modules.contains(&abs[..=k]) {
            k += 1;
        }
        let module = abs[..k].to_vec();
        if let Some(item) = abs.get(k)
            && depth < 16
            && let Some(target) = self.reexports.get(&(module.clone(), item.clone()))
        {
            let through = [target.clone(), abs[k + 1..].to_vec()].concat();
            return self.resolve(&through, depth + 1);
        }
        if module.is_empty() {
            return None;
        }
        if abs.get(k).is_some_and(|i| i != "self") && self.folders.contains(&module) {
            return Some([module, vec!["mod".to_string()]].concat());
        }
        Some(module)
    }
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

/// Every path that starts with `crate`, `chaosclock`, `super`, `self` or
/// one of `children` (the child modules of the file's module), with its
/// line: `crate::a::{b, c::d}` gives `crate::a::b` and `crate::a::c::d`.
fn references(code: &str, children: &BTreeSet<String>) -> Vec<(usize, Vec<String>)> {
    let c: Vec<char> = code.chars().collect();
    let ident = |i: usize| c[i].is_alphanumeric() || c[i] == '_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if ident(i) && (i == 0 || !(ident(i - 1) || c[i - 1] == '$' || c[i - 1] == ':')) {
            let word_end = (i..c.len()).find(|&j| !ident(j)).unwrap_or(c.len());
            let word: String = c[i..word_end].iter().collect();
            let after = (word_end..c.len()).find(|&j| !c[j].is_whitespace());
            let path_follows = after.is_some_and(|j| c[j] == ':' && c.get(j + 1) == Some(&':'));
            let root = matches!(word.as_str(), "crate" | "chaosclock" | "super" | "self")
                || children.contains(&word);
            if root && path_follows {
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

/// The paths of the re-exports (`pub use`, `pub(crate) use`, ...) in
/// `code`, as [`references`] gives them.
fn reexports(code: &str, children: &BTreeSet<String>) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = code[from..].find("pub") {
        let at = from + k;
        from = at + 3;
        if at > 0 && code[..at].chars().last().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let mut rest = &code[at + 3..];
        if let Some(r) = rest.strip_prefix('(') {
            let Some(close) = r.find(')') else { continue };
            rest = &r[close + 1..];
        }
        let Some(tree) = rest.trim_start().strip_prefix("use ") else { continue };
        let end = tree.find(';').unwrap_or(tree.len());
        let start = code.len() - tree.len();
        let mut paths = references(&code[start..start + end], children);
        // A re-export may also start from an outside crate: no module.
        paths.retain(|(_, p)| !p.is_empty());
        out.extend(paths);
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
