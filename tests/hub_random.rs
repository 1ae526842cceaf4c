//! Randomized conversations against the built binary: thousands of random
//! and malformed lines with random go/stop/ping/ponder-hit interleavings.
//! Checks that the engine never dies, answers every ping with a pong, sends
//! exactly one `done` per accepted `go` (a refused `go` gets an
//! `error message="go: …"`), never prints anything but protocol lines, and
//! exits cleanly at the end.

mod common;

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// xorshift64*: enough randomness for a test, no extra crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const POSITIONS: &[&str] = &[
    "pos start",
    "pos start moves=\"32-28 19-23 28x19 14x23\"",
    "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"31-27\"",
    "pos pos=Weeeeeeeeeeeeeeeeeeeeebbeeeeeeeeebeeeeweeeeeeeeeeee",
    "pos pos=WbeeeeeeeeeeeeeeeeeeeeeeeeeeWeeeeeeeeeeeeeeeeeeeeew wolf=\"W28=3\"",
    "pos pos=\"W:W29:B28\"",
    "pos pos=Wbeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
    "pos pos=Wxyz",
    "pos start moves=\"32-28 32-28\"",
    "pos start moves=\"32-28 19-23 28x\"",
    "pos pos=WbeeeeeeeeeeeeeeeeeeeeeeeeeeWeeeeeeeeeeeeeeeeeeeeew wolf=\"W27=3\"",
];

const LEVELS: &[&str] = &[
    "level depth=2",
    "level depth=3",
    "level nodes=2000",
    "level move-time=0.02",
    "level move-time=0",
    "level move-time=-1",
    "level time=0.3 inc=0.01",
    "level moves=40 time=-0.5 inc=0.02",
    "level time=0 inc=0",
    "level infinite",
    "level depth=x",
    "level depth=",
    "level time=nan",
    "level move-time=\"0.01\"",
];

const PARAMS: &[&str] = &[
    "set-param name=threads value=1",
    "set-param name=threads value=2",
    "set-param name=threads value=0",
    "set-param name=tt-size value=16",
    "set-param name=tt-size value=18",
    "set-param name=tt-size value=99",
    "set-param name=variant value=frisian",
    "set-param name=variant value=normal",
    "set-param name=variant value=frysk!",
    "set-param name=variant value=killer",
    "set-param name=frisian-king-rows value=true",
    "set-param name=frisian-king-rows value=false",
    "set-param name=ponder value=true",
    "set-param name=initial-time value=60",
    "set-param name=threads",
    "set-param name=level value=1",
    "set-param name=level value=hard",
    "set-param name=level value=10",
    "set-param name=level value=zero",
];

const GOS: &[&str] = &["go think", "go ponder", "go analyze", "go"];

/// A random line that is not a command (so it cannot be `go` or `quit`).
fn garbage(rng: &mut Rng) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ab=\" \t\x01\x1b\xff\xc3-x0123456789gopq";
    loop {
        let n = rng.below(40);
        let mut v: Vec<u8> = (0..n)
            .map(|_| ALPHABET[rng.below(ALPHABET.len())])
            .collect();
        if rng.below(4) == 0 {
            // A known command with broken arguments.
            let c = rng.pick(&["level", "pos", "set-param", "hub"]);
            let mut l = format!("{c} ").into_bytes();
            l.append(&mut v);
            v = l;
        }
        let first: Vec<u8> = v
            .iter()
            .copied()
            .skip_while(|&b| b == b' ' || b == b'\t')
            .take_while(|&b| b != b' ' && b != b'\t')
            .collect();
        let word = String::from_utf8_lossy(&first).to_string();
        if !["go", "quit", "ping"].contains(&word.as_str()) {
            return v;
        }
    }
}

#[derive(Default, Debug)]
struct Counts {
    pongs: usize,
    dones: usize,
    go_errors: usize,
    waits: usize,
}

fn tally(line: &str, c: &mut Counts) {
    let first = line.split(' ').next().unwrap_or("");
    match first {
        "pong" => c.pongs += 1,
        "done" => {
            assert!(line.starts_with("done move="), "bare done: {line}");
            c.dones += 1
        }
        "wait" => c.waits += 1,
        "error" => {
            assert!(line.starts_with("error message=\""), "{line}");
            if line.starts_with("error message=\"go: ") {
                c.go_errors += 1;
            }
        }
        "info" | "id" | "param" | "ready" => {}
        _ => panic!("not a protocol line: {line:?}"),
    }
}

fn drain(rx: &Receiver<String>, c: &mut Counts, log: &mut Vec<String>) {
    while let Ok(l) = rx.try_recv() {
        tally(&l, c);
        log.push(l);
    }
}

fn conversation(seed: u64, lines: usize) {
    let mut rng = Rng(seed);
    let mut child = Command::new(env!("CARGO_BIN_EXE_molkwar"))
        // Tables built on first use go to the build tree, never to $HOME.
        .env(
            "MOLKWAR_EGDB",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/egdb"),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start molkwar");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let rx = common::lines_of(stdout);
    let mut c = Counts::default();
    let mut log = Vec::new();
    let (mut pings, mut gos) = (0usize, 0usize);
    for i in 0..lines {
        let line: Vec<u8> = match rng.below(20) {
            _ if i == lines / 2 => vec![b'x'; (1 << 20) + 10],
            0..=2 => {
                pings += 1;
                b"ping".to_vec()
            }
            3..=5 => {
                gos += 1;
                rng.pick(GOS).as_bytes().to_vec()
            }
            6 => b"stop".to_vec(),
            7 => b"ponder-hit".to_vec(),
            8 | 9 => rng.pick(POSITIONS).as_bytes().to_vec(),
            10 | 11 => rng.pick(LEVELS).as_bytes().to_vec(),
            12 => rng.pick(PARAMS).as_bytes().to_vec(),
            13 => rng
                .pick(&["hub", "init", "new-game", "", "  ", "unknown x=1"])
                .as_bytes()
                .to_vec(),
            _ => garbage(&mut rng),
        };
        let mut data = line;
        data.push(b'\n');
        stdin.write_all(&data).expect("engine alive (stdin)");
        stdin.flush().unwrap();
        if rng.below(8) == 0 {
            std::thread::sleep(Duration::from_millis(rng.below(4) as u64));
        }
        if i % 200 == 0 {
            drain(&rx, &mut c, &mut log);
            assert!(
                child.try_wait().unwrap().is_none(),
                "engine died after line {i}"
            );
        }
    }
    // Settle: stop what runs, then an interrupting command (hub) so that
    // every done is out, then a last ping.
    writeln!(stdin, "stop\nping\nhub\nping").unwrap();
    stdin.flush().unwrap();
    pings += 2;
    let waits_before = c.waits;
    let deadline = Instant::now() + Duration::from_secs(60);
    while c.pongs < pings || c.waits == waits_before {
        let left = deadline.saturating_duration_since(Instant::now());
        let l = rx.recv_timeout(left).unwrap_or_else(|_| {
            panic!(
                "seed {seed}: waiting for the last pong: {c:?}, pings {pings}\n{}",
                log[log.len().saturating_sub(30)..].join("\n")
            )
        });
        tally(&l, &mut c);
        log.push(l);
    }
    assert_eq!(c.pongs, pings, "seed {seed}: pongs");
    assert_eq!(
        c.dones + c.go_errors,
        gos,
        "seed {seed}: one done or go-error per go: {c:?}"
    );
    drop(stdin);
    let t = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            assert!(s.success(), "seed {seed}: exit status {s}");
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "seed {seed}: no exit after EOF"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    drain(&rx, &mut c, &mut log);
    assert_eq!(c.dones + c.go_errors, gos, "seed {seed}: late done");
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.is_empty(), "seed {seed}: stderr: {err}");
}

#[test]
fn random_conversations() {
    let handles: Vec<_> = [0x9E37_79B9_7F4A_7C15u64, 42, 7]
        .into_iter()
        .map(|seed| std::thread::spawn(move || conversation(seed, 4000)))
        .collect();
    for h in handles {
        h.join().expect("conversation");
    }
}
