//! Tidy checks: invariants of the workspace that `cargo test` enforces, read from the files.
//!
//! The main one is the dependency direction. Data flows import -> animation core -> scene ->
//! plain frame data -> renderer; no crate may depend against that flow or on a library that
//! is not its business (the animation core knows no GPU, file format, ECS, window or watcher).
//! Only `game/` wires everything together.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Third-party crates that only some crates may use.
const RESTRICTED: &[&str] =
    &["wgpu", "gltf", "hecs", "notify", "notify-debouncer-full", "winit", "image", "anyhow", "tracing-subscriber"];

/// For each crate: the project crates and restricted third-party crates it may depend on
/// (in any dependency table, dev and build included). `*` = anything (the wiring crates).
const ALLOWED: &[(&str, &[&str])] = &[
    ("props-anim", &[]),
    ("props-gltf", &["props-anim", "gltf", "image"]),
    ("props-frame", &["props-anim"]),
    // The crowd layer: instances of models posed into frames, no ECS, town, GPU or file.
    ("props-crowd", &["props-anim", "props-frame"]),
    ("props-render", &["props-anim", "props-frame", "wgpu"]),
    ("props-scene", &["props-anim", "props-crowd", "props-frame", "hecs"]),
    ("props-bench", &["props-anim", "props-gltf"]),
    // Its sidecars bind by the crowd layer's names (`Bindings`).
    ("props-mods", &["props-anim", "props-crowd", "props-gltf", "notify", "notify-debouncer-full"]),
    // The facade for other games: everything above but the town, wired for a host, no ECS or
    // window.
    ("props-host", &["props-anim", "props-crowd", "props-frame", "props-gltf", "props-mods", "props-render", "wgpu"]),
    ("props-fuzz", &["props-anim", "props-gltf", "props-mods", "image"]),
    (
        "props-tests",
        &["props-anim", "props-frame", "props-crowd", "props-gltf", "props-render", "props-bench", "wgpu", "image"],
    ),
    ("props-examples", &["props-host", "props-render", "wgpu", "winit", "image", "tracing-subscriber"]),
    ("game", &["*"]),
    ("xtask", &["*"]),
];

/// Packages outside `crates/`: folder and package name.
const TOP_LEVEL: &[(&str, &str)] =
    &[("examples", "props-examples"), ("game", "game"), ("tests", "props-tests"), ("xtask", "xtask")];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every package manifest of the workspace: `crates/*`, `examples`, `game`, `tests`, `xtask`.
fn manifests() -> BTreeMap<String, (PathBuf, toml::Table)> {
    let root = root();
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(root.join("crates")).expect("crates/").flatten().map(|e| e.path()).collect();
    dirs.extend(TOP_LEVEL.iter().map(|(folder, _)| root.join(folder)));
    dirs.into_iter()
        .filter(|d| d.join("Cargo.toml").is_file())
        .map(|dir| {
            let text = std::fs::read_to_string(dir.join("Cargo.toml")).expect("readable manifest");
            let table: toml::Table = text.parse().expect("valid TOML");
            let name = table["package"]["name"].as_str().expect("package.name").to_owned();
            (name, (dir, table))
        })
        .collect()
}

/// Names of all dependencies of a manifest, in every dependency table (target ones too).
fn dependencies(table: &toml::Table) -> Vec<String> {
    let kinds = ["dependencies", "dev-dependencies", "build-dependencies"];
    let mut tables: Vec<&toml::Table> = kinds.iter().filter_map(|k| table.get(*k)?.as_table()).collect();
    if let Some(targets) = table.get("target").and_then(|t| t.as_table()) {
        for target in targets.values().filter_map(|t| t.as_table()) {
            tables.extend(kinds.iter().filter_map(|k| target.get(*k)?.as_table()));
        }
    }
    tables.into_iter().flat_map(|t| t.keys().cloned()).collect()
}

#[test]
fn dependencies_follow_the_data_flow() {
    let mut errors = Vec::new();
    for (name, (_, table)) in manifests() {
        let Some((_, allowed)) = ALLOWED.iter().find(|(crate_name, _)| *crate_name == name) else {
            errors.push(format!("{name}: not in the tidy test's ALLOWED table; add it with its allowed dependencies"));
            continue;
        };
        if allowed.contains(&"*") {
            continue;
        }
        for dep in dependencies(&table) {
            let restricted = dep.starts_with("props-") || dep == "game" || RESTRICTED.contains(&dep.as_str());
            if restricted && !allowed.contains(&dep.as_str()) {
                errors.push(format!("{name} must not depend on {dep}"));
            }
        }
    }
    assert!(errors.is_empty(), "dependency rules broken:\n{}", errors.join("\n"));
}

#[test]
fn crates_are_named_after_their_folder_and_share_the_lints() {
    for (name, (dir, table)) in manifests() {
        let folder = dir.file_name().expect("folder name").to_string_lossy().into_owned();
        let expected = TOP_LEVEL.iter().find(|(f, _)| *f == folder).map_or(folder.clone(), |(_, p)| (*p).to_owned());
        assert_eq!(expected, name, "{}: crate folder and crate name differ", dir.display());
        if dir.parent().is_some_and(|p| p.ends_with("crates")) {
            assert!(name.starts_with("props-"), "{name}: library crates share the props- prefix");
        }
        let lints = table.get("lints").and_then(|l| l.get("workspace")).and_then(|w| w.as_bool());
        assert_eq!(lints, Some(true), "{name}: needs `[lints] workspace = true`");
    }
}

#[test]
fn architecture_names_every_crate() {
    let architecture = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    for name in manifests().keys() {
        assert!(architecture.contains(&format!("`{name}`")), "ARCHITECTURE.md does not describe `{name}`");
    }
}

/// Only the game binary installs a tracing subscriber; libraries only emit events.
#[test]
fn only_the_game_installs_a_subscriber() {
    fn visit(dir: &Path, hits: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                visit(&path, hits);
            } else if path.extension().is_some_and(|e| e == "rs")
                && std::fs::read_to_string(&path).is_ok_and(|s| s.contains(concat!("tracing_", "subscriber")))
            {
                hits.push(path);
            }
        }
    }
    let mut hits = Vec::new();
    visit(&root().join("crates"), &mut hits);
    assert!(hits.is_empty(), "libraries must not install a tracing subscriber: {hits:?}");
}

/// Every `.rs` file under `dir`, recursively (build output aside).
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() && !path.ends_with("target") {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every Rust source file of every package (its `src/`, tests, benches and examples).
fn all_sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for (dir, _) in manifests().values() {
        sources(dir, &mut files);
    }
    files
}

/// The module doc comment a file opens with (`//!` lines, attributes such as `#![...]`
/// before it allowed).
fn module_doc(text: &str) -> String {
    text.lines()
        .skip_while(|line| line.starts_with("#!["))
        .take_while(|line| line.starts_with("//!"))
        .map(|line| line.trim_start_matches("//!").trim())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every module says what it is for: the per-file detail lives in its doc comment, not in
/// ARCHITECTURE.md.
#[test]
fn every_module_opens_with_its_documentation() {
    let root = root();
    let undocumented: Vec<String> = all_sources()
        .into_iter()
        .filter(|path| module_doc(&std::fs::read_to_string(path).unwrap_or_default()).is_empty())
        .map(|path| path.strip_prefix(&root).unwrap_or(&path).display().to_string())
        .collect();
    assert!(undocumented.is_empty(), "modules without a `//!` doc comment at the top: {undocumented:?}");
}

/// Most lines a source file has unless its module doc says why it is longer, in a sentence
/// starting with `Over 600 lines:`.
const MAX_LINES: usize = 600;

/// A long file is a sign of two concerns in one; one that stays long says why at its top.
#[test]
fn no_file_is_over_600_lines_without_a_reason() {
    let root = root();
    let long: Vec<String> = all_sources()
        .into_iter()
        .filter(|path| {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            text.lines().count() > MAX_LINES && !module_doc(&text).contains("Over 600 lines:")
        })
        .map(|path| path.strip_prefix(&root).unwrap_or(&path).display().to_string())
        .collect();
    assert!(long.is_empty(), "over {MAX_LINES} lines with no `Over 600 lines:` reason in the module doc: {long:?}");
}

/// Most lines ARCHITECTURE.md may have: a map, not an index of files.
const ARCHITECTURE_LINES: usize = 250;

/// ARCHITECTURE.md stays a short map and names no source file that does not exist.
#[test]
fn architecture_is_a_short_map_naming_only_real_files() {
    let architecture = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let lines = architecture.lines().count();
    assert!(lines <= ARCHITECTURE_LINES, "ARCHITECTURE.md has {lines} lines; a map has at most {ARCHITECTURE_LINES}");
    let name = |path: &Path| path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
    let existing: std::collections::BTreeSet<String> = all_sources().iter().map(|p| name(p)).collect();
    let stale: Vec<&str> = architecture
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .filter(|word| word.ends_with(".rs") && !existing.contains(*word))
        .collect();
    assert!(stale.is_empty(), "ARCHITECTURE.md names files that do not exist: {stale:?}");
}

/// Every invariant ARCHITECTURE.md states gives its reason: an item `- Invariant: ...` says
/// `because` before the next item.
#[test]
fn every_invariant_says_why() {
    let architecture = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let items = architecture.split("\n- ").skip(1).map(|item| item.split("\n\n").next().unwrap_or_default());
    let unexplained: Vec<String> = items
        .filter(|item| item.starts_with("Invariant:") && !item.contains("because"))
        .map(|item| item.lines().next().unwrap_or_default().to_owned())
        .collect();
    let stated = architecture.matches("- Invariant:").count();
    assert!(stated >= 20, "ARCHITECTURE.md states {stated} invariants, each as `- Invariant: ... because ...`");
    assert!(unexplained.is_empty(), "invariants without their reason (`because ...`): {unexplained:?}");
}

/// Every library crate under `crates/`: its folder name and the text of its `src/lib.rs`.
fn library_roots() -> Vec<(String, String)> {
    let mut roots: Vec<(String, String)> = std::fs::read_dir(root().join("crates"))
        .expect("crates/")
        .flatten()
        .filter_map(|entry| {
            let text = std::fs::read_to_string(entry.path().join("src/lib.rs")).ok()?;
            Some((entry.file_name().to_string_lossy().into_owned(), text))
        })
        .collect();
    roots.sort();
    roots
}

/// The names a `pub use` list brings in (`a::{B, c::D}` gives `B` and `D`; `x as y` gives `y`),
/// each with the first segment of its path.
fn used_names(tree: &str) -> Vec<(String, String)> {
    let tree: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let first = tree.split("::").next().unwrap_or_default().trim().to_owned();
    let inner = match (tree.find('{'), tree.rfind('}')) {
        (Some(open), Some(close)) => tree[open + 1..close].to_owned(),
        _ => tree.rsplit("::").next().unwrap_or_default().to_owned(),
    };
    inner
        .replace(['{', '}'], ",")
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty() && *item != "self")
        .map(|item| {
            let name = item.rsplit(" as ").next().unwrap_or(item);
            (first.clone(), name.rsplit("::").next().unwrap_or(name).trim().to_owned())
        })
        .collect()
}

/// Most names a library crate's root holds: its public modules, its own items and its
/// re-exports together.
const MAX_ROOT_NAMES: usize = 40;

/// Each type has one path: a crate's root re-exports nothing from its own public modules (a
/// second path to the same item) and nothing from another crate of the workspace (props-host,
/// the facade a game embeds, excepted), and holds at most [`MAX_ROOT_NAMES`] names.
#[test]
fn each_crate_root_is_small_and_each_item_has_one_path() {
    let mut errors = Vec::new();
    for (name, text) in library_roots() {
        let modules: Vec<&str> = text
            .lines()
            .filter_map(|line| line.strip_prefix("pub mod "))
            .map(|rest| rest.trim_end_matches(';').trim())
            .collect();
        let own = text
            .lines()
            .filter(|l| {
                ["pub fn ", "pub const ", "pub struct ", "pub enum ", "pub trait ", "pub type "]
                    .iter()
                    .any(|p| l.starts_with(p))
            })
            .count();
        let mut reexported = 0;
        for statement in text.split(';').filter_map(|s| s.trim().strip_prefix("pub use ")) {
            for (first, item) in used_names(statement) {
                reexported += 1;
                if modules.contains(&first.as_str()) {
                    errors
                        .push(format!("{name}: `{item}` is reachable at the root and in its public module `{first}`"));
                }
                if first.starts_with("props_") && name != "props-host" {
                    errors.push(format!("{name}: re-exports `{item}` of {first}; name it from its own crate"));
                }
            }
        }
        let names = modules.len() + own + reexported;
        if names > MAX_ROOT_NAMES {
            errors.push(format!("{name}: {names} names at the root, more than {MAX_ROOT_NAMES}"));
        }
    }
    assert!(errors.is_empty(), "crate roots:\n{}", errors.join("\n"));
}

/// One name, one meaning: no public type of a library crate shares its name with another
/// library crate's type.
#[test]
fn no_public_type_name_is_defined_in_two_crates() {
    let mut defined: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
    for (name, _) in library_roots() {
        let mut files = Vec::new();
        sources(&root().join("crates").join(&name).join("src"), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            for line in text.lines() {
                let Some(rest) =
                    ["pub struct ", "pub enum ", "pub trait ", "pub type "].iter().find_map(|p| line.strip_prefix(p))
                else {
                    continue;
                };
                let ty: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                defined.entry(ty).or_default().insert(name.clone());
            }
        }
    }
    let twice: Vec<String> = defined
        .into_iter()
        .filter(|(_, crates)| crates.len() > 1)
        .map(|(ty, crates)| format!("{ty}: {crates:?}"))
        .collect();
    assert!(twice.is_empty(), "public types named alike in two library crates:\n{}", twice.join("\n"));
}

/// `a::{b, c::{d, e}}` as the paths it names: `a::b`, `a::c::d`, `a::c::e`.
fn expand_use(path: &str) -> Vec<String> {
    let path = path.trim();
    let Some(open) = path.find('{') else { return vec![path.to_owned()] };
    let (head, body) = (&path[..open], path[open + 1..].trim_end().trim_end_matches('}'));
    let (mut parts, mut depth, mut current) = (Vec::new(), 0usize, String::new());
    for ch in body.chars() {
        match ch {
            ',' if depth == 0 => parts.push(std::mem::take(&mut current)),
            '{' => (depth += 1, current.push(ch)).1,
            '}' => (depth = depth.saturating_sub(1), current.push(ch)).1,
            _ => current.push(ch),
        }
    }
    parts.push(current);
    parts.iter().filter(|p| !p.trim().is_empty()).flat_map(|p| expand_use(&format!("{head}{}", p.trim()))).collect()
}

/// The modules of one crate's `src/` (by module path) and, for each, the modules its code
/// names through `use crate::`, `use super::` and `crate::` paths (comments and the inline
/// `tests` module aside: tests may use anything).
fn module_imports(src: &Path) -> BTreeMap<Vec<String>, std::collections::BTreeSet<Vec<String>>> {
    let mut files = Vec::new();
    sources(src, &mut files);
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .into_iter()
        .filter_map(|file| {
            let relative = file.strip_prefix(src).ok()?.with_extension("");
            let mut path: Vec<String> = relative.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            if matches!(path.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                path.pop();
            }
            (path.first().map(String::as_str) != Some("bin")).then_some((path, file))
        })
        .collect();
    let resolve = |segments: &[String]| {
        (1..=segments.len()).rev().map(|k| segments[..k].to_vec()).find(|prefix| modules.contains_key(prefix))
    };
    modules
        .iter()
        .map(|(module, file)| {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            let code: String =
                text.lines().map(|line| line.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n");
            let code = code.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
            let mut named: Vec<Vec<String>> = Vec::new();
            for (keyword, base) in
                [("use crate::", Vec::new()), ("use super::", module[..module.len().saturating_sub(1)].to_vec())]
            {
                for (at, _) in code.match_indices(keyword) {
                    let rest = &code[at + keyword.len()..];
                    for path in expand_use(&rest[..rest.find(';').unwrap_or(rest.len())]) {
                        let mut segments = base.clone();
                        segments.extend(
                            path.split("::")
                                .map(|s| s.split(" as ").next().unwrap_or_default().trim().to_owned())
                                .filter(|s| !s.is_empty() && s != "self"),
                        );
                        named.push(segments);
                    }
                }
            }
            for (at, _) in code.match_indices("crate::") {
                let rest = &code[at + "crate::".len()..];
                let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(rest.len());
                named.push(rest[..end].split("::").filter(|s| !s.is_empty()).map(str::to_owned).collect());
            }
            let imports = named.iter().filter_map(|s| resolve(s)).filter(|t| t != module && !t.is_empty()).collect();
            (module.clone(), imports)
        })
        .collect()
}

/// No crate's files import each other in a circle: each file sits on a floor and imports only
/// from the floors below it, so a file can be read (and changed) knowing only what it imports.
#[test]
fn no_crate_has_an_import_circle() {
    let mut circles = Vec::new();
    for (dir, _) in manifests().values() {
        let imports = module_imports(&dir.join("src"));
        let reach = |from: &Vec<String>| {
            let (mut seen, mut stack) = (std::collections::BTreeSet::new(), vec![from.clone()]);
            while let Some(module) = stack.pop() {
                for next in imports.get(&module).into_iter().flatten() {
                    if seen.insert(next.clone()) {
                        stack.push(next.clone());
                    }
                }
            }
            seen
        };
        let reached: BTreeMap<&Vec<String>, _> = imports.keys().map(|m| (m, reach(m))).collect();
        let mut listed = std::collections::BTreeSet::new();
        for (module, from) in &reached {
            let circle: Vec<String> =
                from.iter().filter(|other| reached[other].contains(*module)).map(|m| m.join("::")).collect();
            if circle.len() > 1 && listed.insert(circle.clone()) {
                circles.push(format!(
                    "{}: {}",
                    dir.file_name().unwrap_or_default().to_string_lossy(),
                    circle.join(", ")
                ));
            }
        }
    }
    assert!(circles.is_empty(), "modules that import each other in a circle: {circles:?}");
}
