// Scripts/fuzz builds with -DFUZZING: libFuzzer's own main then drives fuzzAccessCredentials. A plain build has no
// libFuzzer, so this main replays the files named on the command line through fuzzAccessCredentials instead.
#if !FUZZING
import FuzzReplay

@main enum Replay {
    static func main() { replayFiles(fuzzAccessCredentials) }
}
#endif
