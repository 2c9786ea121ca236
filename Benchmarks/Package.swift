// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so that the library's manifest stays free of
// dependencies. Swinject is here only to be measured side by side.
let package = Package(
  name: "JoineryBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Joinery", path: ".."),
    .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
  ],
  targets: [
    // Counts allocations by interposing malloc in the benchmark executable (Linux/glibc).
    .target(name: "MallocCounter"),
    .executableTarget(
      name: "JoineryBenchmarks",
      dependencies: [
        .product(name: "Joinery", package: "Joinery"),
        .product(name: "Swinject", package: "Swinject"),
        "MallocCounter",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
