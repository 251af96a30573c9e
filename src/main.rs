fn main() -> std::process::ExitCode {
    jassturnier::cli::run()
}
