// swift-tools-version: 6.2
import PackageDescription

let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]
let memorySafe: [SwiftSetting] = strictSettings + [.strictMemorySafety()]

func sample(_ module: String) -> String { "Samples/FeedApp/Sources/\(module)" }

let package = Package(
  name: "Joinery",
  // The floor: where Swift concurrency back-deploys. See the README, "Platforms".
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
  products: [
    .library(name: "Joinery", targets: ["Joinery"]),
    // Swift Testing support, separate so that apps never link Testing.
    .library(name: "JoineryTesting", targets: ["JoineryTesting"]),
  ],
  targets: [
    .target(
      name: "Joinery", dependencies: ["JoineryEngine"],
      swiftSettings: memorySafe),
    // The engine's mechanisms: atomics, locks, per-thread state, internal checks. It knows
    // nothing of bindings, containers or errors; its unsafe code stays behind `_` types.
    .target(
      name: "JoineryEngine", dependencies: ["JoineryPlatform"], swiftSettings: memorySafe),
    // The few facts about threads that Swift cannot ask the C library for directly.
    .target(name: "JoineryPlatform"),
    .target(name: "JoineryTesting", dependencies: ["Joinery"], swiftSettings: strictSettings),
    .testTarget(
      name: "JoineryTests",
      dependencies: ["Joinery", "JoineryEngine", "JoineryTesting", "JoineryProbes"],
      swiftSettings: strictSettings),
    // The engine's own tests: its structures against their contracts, under contention.
    .testTarget(
      name: "JoineryEngineTests", dependencies: ["JoineryEngine"], swiftSettings: strictSettings),
    // Cases the tests run in a child process: on the main thread, or where a defect would
    // crash or hang the test run.
    .executableTarget(
      name: "JoineryProbes", dependencies: ["Joinery"], path: "Tests/JoineryProbes",
      swiftSettings: strictSettings),
    // Samples/FeedApp: a multi-module app (`swift run FeedApp`). Each feature is its own
    // module with its own assembly; the app target composes them; the test target swaps
    // production bindings for test ones.
    .target(name: "FeedNetworking", dependencies: ["Joinery"], path: sample("FeedNetworking")),
    .target(name: "FeedStorage", dependencies: ["Joinery"], path: sample("FeedStorage")),
    .target(name: "FeedAnalytics", dependencies: ["Joinery"], path: sample("FeedAnalytics")),
    .target(
      name: "FeedFeature",
      dependencies: ["Joinery", "FeedNetworking", "FeedStorage", "FeedAnalytics"],
      path: sample("FeedFeature")),
    .target(
      name: "ProfileFeature", dependencies: ["Joinery", "FeedFeature", "FeedAnalytics"],
      path: sample("ProfileFeature")),
    .executableTarget(
      name: "FeedApp",
      dependencies: [
        "Joinery", "FeedNetworking", "FeedStorage", "FeedAnalytics", "FeedFeature",
        "ProfileFeature",
      ],
      path: sample("FeedApp")),
    .testTarget(
      name: "FeedAppTests",
      dependencies: [
        "Joinery", "JoineryTesting", "FeedNetworking", "FeedStorage", "FeedAnalytics",
        "FeedFeature", "ProfileFeature",
      ],
      path: "Samples/FeedApp/Tests/FeedAppTests"),
    // Samples/Migration: classic examples of Resolve, Dip, Guise and Wormer, in Joinery
    // (`swift run MigrationGuide`).
    .executableTarget(name: "MigrationGuide", dependencies: ["Joinery"], path: "Samples/Migration"),
  ],
  swiftLanguageModes: [.v6]
)
