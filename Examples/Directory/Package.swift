// swift-tools-version:6.0
// An example: a table served from code with RowstreamKit, depending on the Rowstream package by path.
import PackageDescription

let package = Package(
    name: "Directory",
    dependencies: [.package(name: "Rowstream", path: "../..")],
    targets: [
        .executableTarget(
            name: "Directory",
            dependencies: [.product(name: "RowstreamKit", package: "Rowstream")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
