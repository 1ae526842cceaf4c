//! The `molkwar` command line: Hub mode (default) and the tools.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
