//! The real watcher and loader on temporary mods folders: what a modder does, and what the
//! game sees. Waits are bounded ([`support::EVENT_TIMEOUT`]) and end as soon as the event
//! arrives.

use std::path::Path;
use std::time::Duration;

use props_mods::{ModConfig, ModError, ModEvent, ModWatcher};

use crate::models;
use crate::support::{self, TempDir, Watched, serial, version};

#[test]
fn good_broken_fixed_deleted() {
    let _serial = serial();
    let mods = TempDir::new("lifecycle");
    let mut watched = Watched::start(mods.path());

    mods.write("a.gltf", models::gltf("first"));
    let first = watched.loaded("a.gltf", "first");
    let ModEvent::Loaded { name, report, load_ms, .. } = &first else { unreachable!() };
    assert_eq!(name, "a");
    assert!(report.issues.is_empty(), "{report}");
    assert_eq!(report.file, mods.path().join("a.gltf"), "the report names the file as the watcher was given it");
    assert!(*load_ms >= 0.0);

    mods.write("a.gltf", models::BROKEN_JSON);
    let refused = watched.rejected("a.gltf");
    let error = refused.to_string();
    let file = mods.path().join("a.gltf");
    assert!(error.starts_with(&format!("{}: error[INVALID_JSON]: not valid JSON", file.display())), "{error}");

    mods.write("a.gltf", models::gltf("fixed"));
    let fixed = watched.loaded("a.gltf", "fixed");
    assert!(version(&fixed) > version(&first));

    mods.remove("a.gltf");
    watched.removed("a.gltf");

    drop(watched);
    assert_eq!(support::threads_named("mod-loader").unwrap_or(0), 0, "drop joins the mod-loader thread");
    assert!(support::threads_gone(), "notify's threads end after the drop");
}

#[test]
fn truncated_glb_is_rejected_and_the_complete_file_loads() {
    let _serial = serial();
    let mods = TempDir::new("glb");
    let mut watched = Watched::start(mods.path());
    let glb = models::glb("binary");
    mods.write("pack/prop.glb", &glb[..glb.len() / 2]);
    let refused = watched.rejected("pack/prop.glb");
    let error = refused.to_string();
    assert!(error.contains("prop.glb: error[GLB_LENGTH_MISMATCH]: the GLB header declares"), "{error}");
    mods.write("pack/prop.glb", &glb);
    watched.loaded("pack/prop.glb", "binary");
}

#[test]
fn uri_leaving_the_folder_is_rejected() {
    let _serial = serial();
    let mods = TempDir::new("escape");
    mods.write("secret.bin", models::bin());
    let mut watched = Watched::start(mods.path());
    mods.write("pack/evil.gltf", models::gltf_external("evil", "../secret.bin"));
    let refused = watched.rejected("pack/evil.gltf");
    let error = refused.to_string();
    assert!(error.contains("evil.gltf: /buffers/0/uri: error[PROPS_URI_OUTSIDE_FOLDER]"), "{error}");
    assert!(error.contains("URI `../secret.bin` is refused"), "{error}");
    // The fix: the buffer next to the model.
    mods.write("pack/evil.bin", models::bin());
    mods.write("pack/evil.gltf", models::gltf_external("good", "evil.bin"));
    watched.loaded("pack/evil.gltf", "good");
}

#[test]
fn missing_bin_is_rejected_until_it_arrives() {
    let _serial = serial();
    let mods = TempDir::new("bin");
    let mut watched = Watched::start(mods.path());
    mods.write("pack/house.gltf", models::gltf_external("house", "house.bin"));
    let refused = watched.rejected("pack/house.gltf");
    let error = refused.to_string();
    assert!(error.contains("the file `house.bin` does not exist"), "{error}");
    // Writing the .bin reloads the models of its folder.
    mods.write("pack/house.bin", models::bin());
    watched.loaded("pack/house.gltf", "house");
}

#[test]
fn rename_removes_the_old_path_and_loads_the_new() {
    let _serial = serial();
    let mods = TempDir::new("rename");
    mods.write("old.gltf", models::gltf("renamed"));
    let mut watched = Watched::start(mods.path());
    watched.loaded("old.gltf", "renamed");
    std::fs::rename(mods.path().join("old.gltf"), mods.path().join("new.gltf")).expect("rename");
    watched.loaded("new.gltf", "renamed");
    watched.removed("old.gltf");
}

#[test]
fn existing_models_load_at_start_without_settling() {
    let _serial = serial();
    let mods = TempDir::new("initial");
    mods.write("a.glb", models::glb("a"));
    mods.write("pack/b.gltf", models::gltf("b"));
    mods.write(".hidden.gltf", models::gltf("hidden"));
    mods.write("pack/c.gltf.part", models::BROKEN_JSON);
    // A settle far longer than the wait: only the start-up scan can load these in time.
    let config = ModConfig { settle: Duration::from_secs(60), ..ModConfig::default() };
    let mut watched = Watched::new(ModWatcher::start(mods.path(), config).expect("start"));
    watched.loaded_all(&["a.glb", "pack/b.gltf"]);
    let more = watched.rest_after(Duration::from_millis(200));
    assert!(more.is_empty(), "hidden and temporary files are ignored: {more:#?}");
}

#[test]
fn wait_until_ready_returns_the_models_present_at_start() {
    let _serial = serial();
    let mods = TempDir::new("ready");
    mods.write("a.glb", models::glb("a"));
    mods.write("pack/broken.gltf", models::BROKEN_JSON);
    let config = ModConfig { settle: Duration::from_secs(60), ..ModConfig::default() };
    let watcher = ModWatcher::start(mods.path(), config).expect("start");
    let events = watcher.wait_until_ready(support::EVENT_TIMEOUT);
    let paths: Vec<(&str, &Path)> = events
        .iter()
        .map(|e| match e {
            ModEvent::Loaded { path, .. } => ("loaded", path.as_path()),
            ModEvent::Rejected { path, .. } => ("rejected", path.as_path()),
            other => panic!("unexpected event before Ready: {other:?}"),
        })
        .collect();
    assert_eq!(paths.len(), 2, "{events:#?}");
    assert!(paths.contains(&("loaded", Path::new("a.glb"))), "{paths:?}");
    assert!(paths.contains(&("rejected", Path::new("pack/broken.gltf"))), "{paths:?}");
    // Ready comes once: later polls see only later changes.
    std::thread::sleep(Duration::from_millis(100));
    assert!(watcher.poll().next().is_none());
}

#[test]
fn folders_moved_in_renamed_and_removed() {
    let _serial = serial();
    let outside = TempDir::new("outside");
    outside.write("pack/one.gltf", models::gltf("one"));
    outside.write("pack/deep/two.glb", models::glb("two"));
    let mods = TempDir::new("moved-in");
    let mut watched = Watched::start(mods.path());
    std::fs::rename(outside.path().join("pack"), mods.path().join("pack")).expect("move the folder in");
    watched.loaded_all(&["pack/one.gltf", "pack/deep/two.glb"]);
    std::fs::rename(mods.path().join("pack"), mods.path().join("renamed")).expect("rename the folder");
    watched.removed_all(&["pack/one.gltf", "pack/deep/two.glb"]);
    watched.loaded_all(&["renamed/one.gltf", "renamed/deep/two.glb"]);
    std::fs::remove_dir_all(mods.path().join("renamed")).expect("remove the folder");
    watched.removed_all(&["renamed/one.gltf", "renamed/deep/two.glb"]);
}

#[cfg(unix)]
#[test]
fn symlink_out_of_the_mods_folder_is_rejected() {
    let _serial = serial();
    let outside = TempDir::new("link-target");
    outside.write("real.gltf", models::gltf("outside"));
    let mods = TempDir::new("link");
    let mut watched = Watched::start(mods.path());
    std::os::unix::fs::symlink(outside.path().join("real.gltf"), mods.path().join("link.gltf")).expect("symlink");
    let refused = watched.rejected("link.gltf");
    let error = refused.to_string();
    assert!(error.contains("link.gltf: error[PROPS_URI_OUTSIDE_FOLDER]: it is a symbolic link to"), "{error}");
    assert!(error.contains("outside the mods folder"), "{error}");
    assert_eq!(refused.report.file, mods.path().join("link.gltf"), "the report names the link");
    assert!(refused.fatal().any(|issue| issue.code == "PROPS_URI_OUTSIDE_FOLDER"), "{}", refused.report);
}

#[test]
fn start_creates_a_missing_folder() {
    let parent = TempDir::new("missing");
    let root = parent.path().join("mods");
    let watcher = ModWatcher::start(&root, ModConfig::default()).expect("start");
    assert!(root.is_dir());
    assert_eq!(watcher.root(), root.canonicalize().expect("canonical"));
}

#[test]
fn start_on_a_file_fails_naming_it() {
    let parent = TempDir::new("file");
    parent.write("mods", "not a folder");
    let root = parent.path().join("mods");
    let error = ModWatcher::start(&root, ModConfig::default()).expect_err("a file is no mods folder");
    assert!(matches!(&error, ModError::Folder { path, .. } if path == &root), "{error:?}");
    assert!(error.to_string().starts_with(&format!("mods folder {}: ", root.display())), "{error}");
}

#[test]
fn default_limits_are_tighter_than_the_importers() {
    let limits = ModConfig::default().limits;
    assert_eq!(limits.max_file_bytes, 64 * 1024 * 1024);
    assert!(limits.max_buffer_bytes <= props_gltf::Limits::default().max_buffer_bytes);
    assert_eq!(ModConfig::default().settle, Duration::from_millis(250));
}

#[test]
fn file_over_the_size_limit_is_rejected() {
    let _serial = serial();
    let mods = TempDir::new("limit");
    let mut config = ModConfig { settle: support::SETTLE, ..ModConfig::default() };
    config.limits.max_file_bytes = 100;
    let mut watched = Watched::new(ModWatcher::start(mods.path(), config).expect("start"));
    mods.write("big.glb", models::glb("big"));
    // On a loaded machine the empty file just created can stay unchanged for a whole settle
    // period and be rejected first, as empty; the complete file is rejected for its size.
    let event = watched.wait_for("Rejected big.glb for its size", |e| {
        matches!(e, ModEvent::Rejected { path, refused, .. } if path == Path::new("big.glb") && refused.to_string().contains("file size"))
    });
    let ModEvent::Rejected { refused, .. } = event else { unreachable!() };
    assert!(refused.fatal().any(|issue| issue.code == "PROPS_LIMIT_EXCEEDED"), "the report has the issue: {refused}");
    let error = refused.to_string();
    assert!(error.contains("big.glb: error[PROPS_LIMIT_EXCEEDED]: file size in bytes is"), "{error}");
    assert!(error.contains("over the limit of 100"), "{error}");
}

#[test]
fn removing_the_mods_folder_removes_every_model_and_says_so() {
    let _serial = serial();
    let parent = TempDir::new("root-removed");
    let root = parent.path().join("mods");
    std::fs::create_dir_all(root.join("pack")).expect("create");
    std::fs::write(root.join("a.gltf"), models::gltf("a")).expect("write");
    std::fs::write(root.join("pack/b.glb"), models::glb("b")).expect("write");
    let mut watched = Watched::start(&root);
    watched.loaded_all(&["a.gltf", "pack/b.glb"]);
    std::fs::remove_dir_all(&root).expect("remove the mods folder");
    watched.wait_for("WatchError", |e| matches!(e, ModEvent::WatchError { error, .. } if error.contains("removed")));
    watched.removed_all(&["a.gltf", "pack/b.glb"]);
}

#[test]
fn the_example_mod_loads_with_its_clip() {
    let _serial = serial();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mods/example/spinning_sign.gltf");
    let mods = TempDir::new("example");
    mods.write("example/spinning_sign.gltf", std::fs::read(&example).expect("read the example mod"));
    let mut watched = Watched::start(mods.path());
    let event = watched.loaded("example/spinning_sign.gltf", "sign");
    let ModEvent::Loaded { name, model, report, .. } = &event else { unreachable!() };
    assert_eq!(name, "spinning_sign");
    assert!(report.issues.is_empty(), "{report}");
    assert_eq!(model.find_clip("spin"), Some(0));
}

/// Creates a FIFO at `path`.
#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// A FIFO named like a model, and a model whose buffer is a FIFO, are rejected at once (no
/// hang); the watcher goes on loading, and dropping it does not wait.
#[cfg(unix)]
#[test]
fn special_files_are_rejected_without_blocking() {
    let _serial = serial();
    let mods = TempDir::new("fifo");
    let mut watched = Watched::start(mods.path());
    mkfifo(&mods.path().join("pipe.gltf"));
    let refused = watched.rejected("pipe.gltf");
    let error = refused.to_string();
    assert!(error.contains("pipe.gltf: error[IO_ERROR]") && error.contains("FIFO"), "{error}");

    std::fs::create_dir_all(mods.path().join("pack")).expect("pack folder");
    mkfifo(&mods.path().join("pack/data.bin"));
    mods.write("pack/piped.gltf", models::gltf_external("piped", "data.bin"));
    let refused = watched.rejected("pack/piped.gltf");
    let error = refused.to_string();
    assert!(error.contains("/buffers/0/uri: error[IO_ERROR]") && error.contains("FIFO"), "{error}");

    mods.write("after.gltf", models::gltf("after"));
    watched.loaded("after.gltf", "after");
    let started = std::time::Instant::now();
    drop(watched);
    assert!(started.elapsed() < Duration::from_secs(5), "dropping the watcher waited");
}

/// Symbolic links to folders, even looping ones or ones leading out, are not followed.
#[cfg(unix)]
#[test]
fn folder_links_are_not_followed() {
    let _serial = serial();
    let outside = TempDir::new("outside-folder");
    outside.write("far.gltf", models::gltf("far"));
    let mods = TempDir::new("folder-links");
    mods.write("pack/near.gltf", models::gltf("near"));
    std::os::unix::fs::symlink(mods.path(), mods.path().join("pack/loop")).expect("symlink");
    std::os::unix::fs::symlink(outside.path(), mods.path().join("out")).expect("symlink");
    let mut watched = Watched::start(mods.path());
    watched.loaded("pack/near.gltf", "near");
    mods.write("later.gltf", models::gltf("later"));
    watched.loaded("later.gltf", "later");
    let others: Vec<_> = watched.watcher.poll().collect();
    assert!(
        !others.iter().any(|e| matches!(e, ModEvent::Loaded { path, .. } | ModEvent::Rejected { path, .. }
            if path.starts_with("out") || path.starts_with("pack/loop"))),
        "nothing through the links: {others:#?}"
    );
}

/// The mods together stay within their RAM budget: a model that would pass it is refused,
/// naming the budget, and loads once another mod is removed.
#[test]
fn mods_together_stay_within_their_budget() {
    let _serial = serial();
    let mods = TempDir::new("budget");
    let one = {
        let probe = TempDir::new("budget-probe");
        probe.write("one.gltf", models::gltf("one"));
        let admitted = props_gltf::gate::admit_file(&probe.path().join("one.gltf"), &ModConfig::default().limits);
        admitted.expect("a valid model").import.model.heap_bytes()
    };
    let config = ModConfig {
        settle: support::SETTLE,
        total_bytes: one,
        total_bytes_setting: "Settings > Mods > Memory".to_owned(),
        ..ModConfig::default()
    };
    let mut watched = Watched::new(ModWatcher::start(mods.path(), config).expect("start"));
    mods.write("one.gltf", models::gltf("one"));
    watched.loaded("one.gltf", "one");
    mods.write("two.gltf", models::gltf("two"));
    let refused = watched.rejected("two.gltf");
    let error = refused.to_string();
    assert!(error.contains("two.gltf: error[PROPS_LIMIT_EXCEEDED]") && error.contains("remove a mod"), "{error}");
    let budget = format!("over the {} KiB of memory the mods may take together", one.div_ceil(1024));
    assert!(error.contains(&budget) && error.contains("(the largest: one.gltf "), "{error}");
    // The fix names the host's own setting.
    assert!(error.contains("or raise the budget (Settings > Mods > Memory)"), "{error}");
    mods.remove("one.gltf");
    watched.removed("one.gltf");
    // Alone over a smaller budget: no other mod is named as holding it.
    let tight = ModConfig { settle: support::SETTLE, total_bytes: one - 1, ..ModConfig::default() };
    let other = TempDir::new("budget-alone");
    let mut alone = Watched::new(ModWatcher::start(other.path(), tight).expect("start"));
    other.write("one.gltf", models::gltf("one"));
    let error = alone.rejected("one.gltf").to_string();
    assert!(error.contains("the mods already loaded 0 KiB, over") && !error.contains("largest"), "{error}");
    assert!(error.contains("or raise the budget (ModConfig::total_bytes)"), "by default, the field: {error}");
    // Touching it again loads it now that there is room.
    mods.write("two.gltf", models::gltf("two"));
    watched.loaded("two.gltf", "two");
}
