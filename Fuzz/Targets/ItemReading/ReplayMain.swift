// Scripts/fuzz builds with -DFUZZING: libFuzzer's own main then drives fuzzItemReading. A plain build has no libFuzzer,
// so this main replays the files named on the command line through fuzzItemReading instead (regression runs).
#if !FUZZING
import FuzzReplay

@main enum Replay {
    static func main() { replayFiles(fuzzItemReading) }
}
#endif
