fn main() {
    std::process::exit(mmjudge::run());
}
