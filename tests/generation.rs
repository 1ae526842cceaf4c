//! `scripts/generation.sh` end to end on a tiny generation: self-play
//! shards, training, the gate match; a second run redoes nothing, and a
//! run after a lost shard and a lost gate redoes exactly those.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

fn run(data: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("scripts/generation.sh"))
        .args(["frisian", "2"])
        .env("MOLKWAR", env!("CARGO_BIN_EXE_molkwar"))
        .env("DATA", data)
        .env("SHARDS", "3")
        .env("GAMES", "2")
        .env("NODES", "60")
        .env("JOBS", "2")
        .env("TRAIN_ARGS", "--epochs 1 --batch 64")
        .env("GATE_GAMES", "2")
        .env("GATE_TC", "nodes=200")
        .env("GATE_ARGS", "--max-plies 40")
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "generation.sh failed:\n{stderr}");
    stderr
}

fn mtime(p: &Path) -> SystemTime {
    std::fs::metadata(p).and_then(|m| m.modified()).unwrap()
}

#[test]
fn a_generation_runs_resumes_and_skips_what_is_done() {
    let data: PathBuf =
        std::env::temp_dir().join(format!("molkwar-generation-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let log = run(&data);
    // Generation 2 is played by generation 1: seeds 1001..1003.
    let shards: Vec<PathBuf> = (1001..=1003)
        .map(|s| data.join(format!("g1/frisian-{s}.txt")))
        .collect();
    for s in &shards {
        let text = std::fs::read_to_string(s).unwrap();
        assert!(text.lines().count() > 10, "{}", s.display());
        assert!(
            text.lines().all(|l| l.split(" | ").count() == 3),
            "{}",
            s.display()
        );
    }
    let weights = data.join("g2-frisian.mkw");
    let gate = data.join("g2-frisian-gate.txt");
    let w =
        molkwar::eval::weights::Weights::load(&weights, molkwar::eval::weights::Family::Frisian)
            .unwrap();
    assert_eq!(
        w.feature_set(),
        molkwar::eval::features::FeatureSet::Windows
    );
    assert!(
        std::fs::read_to_string(&gate).unwrap().contains("Elo"),
        "{log}"
    );

    // Nothing left to do: every stage is skipped.
    let before: Vec<SystemTime> = shards.iter().map(|s| mtime(s)).collect();
    let wt = mtime(&weights);
    let log = run(&data);
    assert!(log.contains("exists"), "{log}");
    let after: Vec<SystemTime> = shards.iter().map(|s| mtime(s)).collect();
    assert_eq!(before, after);
    assert_eq!(wt, mtime(&weights));

    // A lost shard and a lost gate result: only those are made again.
    std::fs::remove_file(&shards[1]).unwrap();
    std::fs::remove_file(&gate).unwrap();
    run(&data);
    assert!(shards[1].exists());
    assert_eq!(before[0], mtime(&shards[0]));
    assert_eq!(before[2], mtime(&shards[2]));
    assert_eq!(wt, mtime(&weights));
    assert!(gate.exists());
    let _ = std::fs::remove_dir_all(&data);
}
