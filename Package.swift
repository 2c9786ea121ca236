// swift-tools-version: 6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "Joinery",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Joinery", targets: ["Joinery"]),
    // Swift Testing support, separate so that apps never link Testing.
    .library(name: "JoineryTesting", targets: ["JoineryTesting"]),
  ],
  targets: [
    .target(name: "Joinery", dependencies: ["JoineryPlatform"], swiftSettings: strictSettings),
    // The few facts about threads that Swift cannot ask the C library for directly.
    .target(name: "JoineryPlatform"),
    .target(name: "JoineryTesting", dependencies: ["Joinery"], swiftSettings: strictSettings),
    .testTarget(
      name: "JoineryTests", dependencies: ["Joinery", "JoineryTesting"],
      swiftSettings: strictSettings),
    .executableTarget(
      name: "FeedApp",
      dependencies: ["Joinery"],
      path: "Samples/FeedApp"
    ),
  ],
  swiftLanguageModes: [.v6]
)
