import Foundation

/// What a fuzz target's executable does when it is built without libFuzzer (a plain `swift build`): runs each
/// file named on the command line (or every file in a named directory) through the target once, so crash
/// inputs kept under Fuzz/regressions replay without the fuzzer. Exits 0 if every input passed (a failing
/// property traps, as under libFuzzer).
public func replayFiles(_ target: (UnsafePointer<UInt8>, Int) -> CInt) {
    var count = 0
    for argument in CommandLine.arguments.dropFirst() {
        for path in files(at: argument) {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                exit(2)
            }
            let bytes = [UInt8](data) + [0]  // never hand over a null pointer for an empty input
            _ = bytes.withUnsafeBufferPointer { target($0.baseAddress!, data.count) }
            count += 1
        }
    }
    print("replayed \(count) inputs: ok")
}

private func files(at path: String) -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
        return [path]
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.sorted().filter { !$0.hasPrefix(".") }.map { path + "/" + $0 }
}
