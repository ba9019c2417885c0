//! The tabula command: see `tabula --help`.

fn main() -> std::process::ExitCode {
    tabula::cli::main()
}
