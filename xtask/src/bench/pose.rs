//! `cargo xtask bench` (no target): the pose table. Per workload (Fox.glb x 1000, the windmill
//! x 100 000, a 250-joint rig x 100) and method, beside the naive baseline measured in the
//! same run: ns per joint per frame, instances per millisecond, CPU bytes per instance and
//! palette bytes uploaded per instance per frame. See `props_bench::table`.

use anyhow::Result;
use props_bench::table::{self, Options, Row};

/// Arguments of the pose table.
#[derive(clap::Args)]
pub struct PoseArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Seed of the instances' phases.
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
    /// Minimum measured time per row, milliseconds.
    #[arg(long, default_value_t = 500)]
    pub min_ms: u64,
    /// Divide every instance count by this (a quick run).
    #[arg(long, default_value_t = 1)]
    pub scale: usize,
    /// Quantization step of the shared rows, seconds.
    #[arg(long, default_value_t = 1.0 / 60.0)]
    pub step: f32,
    /// Worker threads of the parallel rows (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

/// Measures and prints the table.
pub fn run(args: &PoseArgs) -> Result<()> {
    let options =
        Options { seed: args.seed, min_time: std::time::Duration::from_millis(args.min_ms), ..Options::default() };
    let workloads = table::workloads(args.scale);
    let rows = table::table(&workloads, &options);
    // The error of quantized sharing: largest vertex displacement against the exact pose.
    let errors: Vec<(&str, f32)> =
        workloads.iter().map(|w| (w.name, table::quantization_error(&w.model, w.clip, options.step, 2000))).collect();
    if args.json {
        let rows: Vec<_> = rows.iter().map(json).collect();
        let errors: serde_json::Map<_, _> = errors.iter().map(|(n, e)| ((*n).to_owned(), (*e).into())).collect();
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        println!(
            "{}",
            serde_json::json!({
                "seed": args.seed, "cores": cores, "step": options.step,
                "quantization_error": errors, "rows": rows,
            })
        );
        return Ok(());
    }
    print(&rows);
    for (name, error) in errors {
        println!(
            "quantized sharing, step {:.4} s: {name}: largest vertex displacement {error:.4} model units",
            options.step
        );
    }
    Ok(())
}

fn json(row: &Row) -> serde_json::Value {
    serde_json::json!({
        "workload": row.workload, "method": row.method, "threads": row.threads,
        "instances": row.instances, "joints": row.joints, "frames": row.frames,
        "frame_ns": row.frame_ns, "ns_per_joint": row.ns_per_joint(),
        "best_frame_ns": row.best_ns, "best_ns_per_joint": row.best_ns_per_joint(),
        "instances_per_ms": row.instances_per_ms(),
        "cpu_bytes_per_instance": row.cpu_bytes_per_instance,
        "upload_bytes_per_instance": row.upload_bytes_per_instance,
        "evaluations": row.evaluations,
    })
}

fn print(rows: &[Row]) {
    println!(
        "{:<13} {:>9} {:>6} {:<16} {:>7} {:>10} {:>10} {:>9} {:>10} {:>9} {:>10} {:>11} {:>9}",
        "workload",
        "instances",
        "joints",
        "method",
        "threads",
        "frame ms",
        "ns/joint",
        "best",
        "inst/ms",
        "vs naive",
        "CPU B/inst",
        "upload B/in",
        "poses/fr"
    );
    for row in rows {
        let naive = rows.iter().find(|r| r.workload == row.workload && r.method == "naive");
        let speedup = naive.map_or(1.0, |n| n.frame_ns / row.frame_ns);
        println!(
            "{:<13} {:>9} {:>6} {:<16} {:>7} {:>10.3} {:>10.2} {:>9.2} {:>10.1} {:>8.1}x {:>10.1} {:>11.2} {:>9}",
            row.workload,
            row.instances,
            row.joints,
            row.method,
            row.threads,
            row.frame_ns * 1e-6,
            row.ns_per_joint(),
            row.best_ns_per_joint(),
            row.instances_per_ms(),
            speedup,
            row.cpu_bytes_per_instance,
            row.upload_bytes_per_instance,
            row.evaluations
        );
    }
    println!(
        "ns/joint: median frame time / (instances x joints), best: fastest frame; joints are skin joints, or palette matrices for a \
         model without skins. upload: palette bytes per instance per frame (plus the renderer's \
         64-byte instance record on every row)."
    );
}
